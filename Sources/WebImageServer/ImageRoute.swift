import Foundation
import Hummingbird
import WebImage

/// The image route: every path that is not `/health`, `/ready` or `/metrics`, for `GET` and
/// `HEAD`, read as an image URL; caching headers and `304`.
///
/// It reads the request target as sent (``Hummingbird/Request/rawPath``): the source in a `plain`
/// image URL is percent-encoded, and the signature covers the encoded form. Failures are thrown
/// (``StagedError``, ``FailureAnswer``) and answered by ``FailureAnswerMiddleware``; `HEAD`
/// answers lose their body in ``HeadAnswerMiddleware``.
struct ImageRoute: HTTPResponder {
    typealias Context = BasicRequestContext

    let service: ImageService

    var configuration: ImageServerConfiguration { service.configuration }

    func respond(to request: Request, context: Context) async throws -> Response {
        let (path, hasQuery) = request.rawPath
        if hasQuery, !configuration.allowsQueryString {
            throw FailureAnswer(
                status: 400, code: WebImageError.Code.invalidProcessingOptions.rawValue,
                message: "image URLs take no query string (the service was not started with --allow-query)")
        }
        // HEAD, and a GET whose If-None-Match may match, are answered from validators when they
        // are known without rendering (the source's bytes at hand make the ETag).
        let ifNoneMatch = request.headers[.ifNoneMatch]
        if request.method == .head || ifNoneMatch != nil,
            let known = try? await service.knownResult(path: path, accept: request.headers[.accept])
        {
            let matched = ifNoneMatch.map { Self.matches($0, etag: known.etag) } ?? false
            if matched || request.method == .head {
                service.metrics.unrenderedAnswers.increment()
                return answer(
                    etag: known.etag, contentType: known.contentType, lastModified: known.lastModified, negotiated: known.negotiated,
                    ifNoneMatch: ifNoneMatch, body: nil)
            }
        }
        let rendered: RenderedImage
        do {
            rendered = try await service.image(path: path, accept: request.headers[.accept])
        } catch {
            // A source that fails is answered with the fallback image, when there is one and it renders.
            guard ImageService.fallsBack(error),
                let fallback = try? await service.fallbackImage(path: path, accept: request.headers[.accept])
            else { throw error }
            return fallbackAnswer(fallback, failure: FailureAnswer(error.error, stage: error.stage))
        }
        return answer(
            etag: rendered.etag, contentType: rendered.contentType, lastModified: rendered.lastModified, negotiated: rendered.negotiated,
            ifNoneMatch: ifNoneMatch, body: ByteBuffer(bytes: rendered.data))
    }

    /// A result's answer: `304` when `ifNoneMatch` names `etag`, else `200` with `body` — nil for
    /// a `HEAD` made from validators alone, whose length is not known (not 0).
    private func answer(
        etag: String, contentType: String, lastModified: String?, negotiated: Bool, ifNoneMatch: String?, body: ByteBuffer?
    ) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "public, max-age=\(configuration.cacheMaxAge)"
        if let lastModified { headers[.lastModified] = lastModified }
        if negotiated { headers[.vary] = "Accept" }
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[Self.contentTypeOptions] = "nosniff"
        // Only `raw:1` answers these: a document opened from the service's origin runs nothing.
        if contentType == "image/svg+xml" || !contentType.hasPrefix("image/") {
            headers[Self.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        }
        return Response(status: .ok, headers: headers, body: body.map { .init(byteBuffer: $0) } ?? ResponseBody(contentLength: nil) { _ in })
    }

    /// The fallback image in place of a failed source: the failure's status, the errors'
    /// `Cache-Control` and `X-Fallback: 1` (no ETag: it stands for no result of this URL).
    private func fallbackAnswer(_ rendered: RenderedImage, failure: FailureAnswer) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = rendered.contentType
        headers[Self.contentTypeOptions] = "nosniff"
        headers[.cacheControl] = "public, max-age=\(configuration.errorCacheMaxAge)"
        headers[Self.fallback] = "1"
        if rendered.negotiated { headers[.vary] = "Accept" }
        return Response(status: .init(code: failure.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: rendered.data)))
    }

    private static let contentTypeOptions = HTTPFields.Element.Name("X-Content-Type-Options")!
    private static let fallback = HTTPFields.Element.Name("X-Fallback")!
    private static let contentSecurityPolicy = HTTPFields.Element.Name("Content-Security-Policy")!

    /// Whether an `If-None-Match` list names `etag` (weak comparison, as RFC 9110 says for it) or is `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
