import Hummingbird

/// Counts every answer by status (`webimage_http_requests_total{status}`) and the body bytes
/// sent (`webimage_response_bytes_total`; none for a `HEAD`), in the server's own registry.
///
/// Hummingbird's `MetricsMiddleware` is not used: it records through the process-wide metrics
/// factory under its own names, while each server exports its own registry on `/metrics`.
struct AnswerMetricsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        if request.method != .head { metrics.responseBytes.increment(by: response.body.contentLength ?? 0) }
        metrics.answered(response.status.code)
        return response
    }
}
