import Hummingbird
import Logging

/// The service's routes and middleware, built once per server.
///
/// Routes: `/health`, `/ready`, `/metrics`, `/info/…` (``InfoRoute``), `DELETE /purge/…`
/// (``PurgeRoute``, with a purge token), and every other path an image URL (``ImageRoute``),
/// each for `GET` and `HEAD` (Hummingbird's router answers a method only where it is registered).
/// Middleware, outermost first:
///
/// 1. ``HeadAnswerMiddleware``: a `HEAD` answer without its body;
/// 2. ``AccessLogMiddleware`` (when ``ImageServerConfiguration/accessLog``);
/// 3. ``AnswerMetricsMiddleware``: answers by status, bytes out;
/// 4. ``MethodMiddleware``: `405` for methods other than `GET` and `HEAD`, on every path;
/// 5. ``FailureAnswerMiddleware``: thrown errors (the router's `404` too) as short text answers.
///
/// The log and the metrics see the answer before `HEAD` drops its body, so a `HEAD` logs the
/// length a `GET` would send.
enum ServiceRouter {
    /// The router of a server whose images `service` makes, whose `/ready` tells `readiness`;
    /// the access log and the failures' details go to `logger`.
    static func make(service: ImageService, readiness: Readiness, logger: Logger) -> Router<BasicRequestContext> {
        let configuration = service.configuration
        let metrics = service.metrics
        let router = Router()
        // Middleware applies to the routes added after it, and to the router's "not found".
        router.add(middleware: HeadAnswerMiddleware())
        if configuration.accessLog { router.add(middleware: AccessLogMiddleware(logger: logger)) }
        router.add(middleware: AnswerMetricsMiddleware(metrics: metrics))
        router.add(middleware: MethodMiddleware(allowsPurge: configuration.purgeToken != nil))
        router.add(middleware: FailureAnswerMiddleware(configuration: configuration, logger: logger))

        func getAndHead(_ path: RouterPath, _ answer: @escaping @Sendable () -> Response) {
            router.get(path) { _, _ in answer() }
            router.head(path) { _, _ in answer() }
        }
        getAndHead("/health") { .text(.ok, "ok\n") }
        getAndHead("/ready") {
            let report = readiness.report()
            return .text(report.isReady ? .ok : .serviceUnavailable, report.text)
        }
        getAndHead("/metrics") {
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        let info = InfoRoute(service: service)
        router.on("/info/**", method: .get, responder: info)
        router.on("/info/**", method: .head, responder: info)
        if let token = configuration.purgeToken {
            router.on("/purge/**", method: .delete, responder: PurgeRoute(service: service, token: token))
        }
        let image = ImageRoute(service: service)
        router.on("/**", method: .get, responder: image)
        router.on("/**", method: .head, responder: image)
        return router
    }
}
