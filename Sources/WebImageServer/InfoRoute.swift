import Foundation
import Hummingbird
import WebImage

/// `/info/{signature}/[th:1/]plain/{source}` for `GET` and `HEAD`: the source's facts as JSON
/// (``ImageInfo``), from its header alone unless a ThumbHash is asked for. Failures are thrown and
/// answered by ``FailureAnswerMiddleware``, as for images.
struct InfoRoute: HTTPResponder {
    typealias Context = BasicRequestContext

    let service: ImageService

    func respond(to request: Request, context: Context) async throws -> Response {
        let (path, hasQuery) = request.rawPath
        if hasQuery, !service.configuration.allowsQueryString {
            throw FailureAnswer(
                status: 400, code: WebImageError.Code.invalidProcessingOptions.rawValue,
                message: "info URLs take no query string (the service was not started with --allow-query)")
        }
        let info = try await service.info(path: path.dropFirst(Self.prefix.count))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "public, max-age=\(service.configuration.cacheMaxAge)"
        var body = try encoder.encode(info)
        body.append(UInt8(ascii: "\n"))
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The path prefix this route answers under.
    static let prefix = "/info"
}
