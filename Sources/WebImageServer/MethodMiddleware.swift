import Hummingbird

/// Answers `405` with `Allow: GET, HEAD` to any other method, on every path but `/purge/…`,
/// which takes `DELETE` when the purge route is on.
///
/// Hummingbird's router answers a method no route has with its "not found" (`404`); every
/// route of the service takes `GET` and `HEAD` alone, so the method is checked first.
struct MethodMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// Whether `DELETE /purge/…` is routed (``ImageServerConfiguration/purgeToken`` is set).
    var allowsPurge = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if allowsPurge, request.method == .delete, request.uri.path.hasPrefix("/purge/") {
            return try await next(request, context)
        }
        guard request.method == .get || request.method == .head else {
            var response = Response.text(.methodNotAllowed, "only GET and HEAD\n")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        return try await next(request, context)
    }
}
