import Foundation
import Hummingbird
import Logging
import WebImage

/// The HTTP side: `/health`, `/ready`, `/metrics`, and every other `GET`/`HEAD` path as an image
/// URL; caching headers, `304`, errors as short text with their status, metrics and access logs.
struct ImageResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let service: ImageService
    let readiness: Readiness
    let logger: Logger

    var configuration: ImageServerConfiguration { service.configuration }
    var metrics: ServiceMetrics { service.metrics }

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let target = request.head.path ?? "/"
        let path = target[..<(target.firstIndex(of: "?") ?? target.endIndex)]
        var response: Response
        guard request.method == .get || request.method == .head else {
            response = Self.text(.methodNotAllowed, "only GET and HEAD\n")
            response.headers[.allow] = "GET, HEAD"
            metrics.answered(response.status.code)
            return response
        }
        switch path {
        case "/health": response = Self.text(.ok, "ok\n")
        case "/ready":
            let report = readiness.report()
            response = Self.text(report.isReady ? .ok : .serviceUnavailable, report.text)
        case "/metrics":
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            response = Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        default:
            if path.endIndex != target.endIndex, !configuration.allowsQueryString {
                response = failure(
                    FailureAnswer(
                        status: 400, code: WebImageError.Code.invalidProcessingOptions.rawValue,
                        message: "image URLs take no query string (the service was not started with --allow-query)"))
            } else {
                response = await image(path: path, request: request)
            }
        }
        let bytes = response.body.contentLength ?? 0
        if request.method == .head {
            // An answer made from validators alone has no length to state (not 0).
            let length = response.headers[.contentLength]
            response = response.createHeadResponse()
            if length == nil { response.headers[.contentLength] = nil }
        } else {
            metrics.responseBytes.increment(by: bytes)
        }
        metrics.answered(response.status.code)
        if configuration.accessLog {
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            logger.info(
                "\(request.method.rawValue) \(path) \(response.status.code) \(bytes) \(String(format: "%.1f", milliseconds))ms")
        }
        return response
    }

    private func image(path: Substring, request: Request) async -> Response {
        // HEAD, and a GET whose If-None-Match may match, are answered from validators when they
        // are known without rendering (the source's bytes at hand make the ETag).
        let ifNoneMatch = request.headers[.ifNoneMatch]
        if request.method == .head || ifNoneMatch != nil,
            let known = try? await service.knownResult(path: path, accept: request.headers[.accept])
        {
            let matched = ifNoneMatch.map { Self.matches($0, etag: known.etag) } ?? false
            if matched || request.method == .head {
                metrics.unrenderedAnswers.increment()
                return answer(
                    etag: known.etag, contentType: known.contentType, lastModified: known.lastModified, negotiated: known.negotiated,
                    ifNoneMatch: ifNoneMatch, body: nil)
            }
        }
        let rendered: RenderedImage
        do {
            rendered = try await service.image(path: path, accept: request.headers[.accept])
        } catch {
            let answer = FailureAnswer(error.error, stage: error.stage)
            if answer.message != error.error.message {
                // The client got the short reason; the detail (addresses, origin answers) is logged.
                logger.notice("\(request.method.rawValue) \(path) \(answer.status) \(error.error.code.rawValue): \(error.error.message)")
            }
            return failure(answer)
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
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: body.map { .init(byteBuffer: $0) } ?? ResponseBody(contentLength: nil) { _ in })
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison, as RFC 9110 says for it) or is `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    private func failure(_ answer: FailureAnswer) -> Response {
        var response = Self.text(HTTPResponse.Status(code: answer.status), "\(answer.status) \(answer.code): \(answer.message)\n")
        if answer.status == 503 {
            response.headers[.retryAfter] = String(configuration.retryAfterSeconds)
            response.headers[.cacheControl] = "no-store"
        } else {
            response.headers[.cacheControl] = "public, max-age=\(configuration.errorCacheMaxAge)"
        }
        return response
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
