import Crypto
import Foundation
import Hummingbird
import WebImage

/// `DELETE /purge/{signature}/plain/{source}` with `Authorization: Bearer <purge token>`: removes
/// the source's original and every result made from it (``ImageService/purge(path:)``) and
/// answers how many entries went from each tier as JSON, `200`, or `404` when there were none.
/// A missing or wrong token is `401` (compared in constant time). Routed only when
/// ``ImageServerConfiguration/purgeToken`` is set.
struct PurgeRoute: HTTPResponder {
    typealias Context = BasicRequestContext

    let service: ImageService
    /// The SHA-256 of the token: compared with the offered one's in constant time.
    let tokenDigest: [UInt8]

    init(service: ImageService, token: String) {
        self.service = service
        tokenDigest = Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// What the answer's JSON says.
    struct Report: Encodable {
        var source: String
        var removed: SourcePurger.Removed
        var total: Int
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard authorizes(request.headers[.authorization]) else {
            var response = Response.text(.unauthorized, "a purge needs Authorization: Bearer with the purge token\n")
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        let (path, _) = request.rawPath
        let (source, removed) = try await service.purge(path: path.dropFirst(Self.prefix.count))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body = try encoder.encode(Report(source: source.url.absoluteString, removed: removed, total: removed.total))
        body.append(UInt8(ascii: "\n"))
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(
            status: removed.total > 0 ? .ok : .notFound, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Whether `header` is `Bearer <token>`: the digests compared in full, whatever differs first.
    private func authorizes(_ header: String?) -> Bool {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return false }
        let offered = SHA256.hash(data: Data(header.dropFirst(7).trimmingCharacters(in: .whitespaces).utf8))
        var difference: UInt8 = 0
        for (a, b) in zip(offered, tokenDigest) { difference |= a ^ b }
        return difference == 0
    }

    /// The path prefix this route answers under.
    static let prefix = "/purge"
}
