import Foundation
import Hummingbird
import Logging

/// Writes one line per answer at `info`: method, path (without its query), status, body bytes
/// and the milliseconds taken to make the answer, e.g. `GET /health 200 3 0.1ms`.
///
/// A `HEAD` logs the length its `GET` would send (0 for one made from validators alone).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let bytes = response.body.contentLength ?? 0
        logger.info(
            "\(request.method.rawValue) \(request.rawPath.path) \(response.status.code) \(bytes) \(String(format: "%.1f", milliseconds))ms")
        return response
    }
}
