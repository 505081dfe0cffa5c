import Hummingbird

/// Answers `405` with `Allow: GET, HEAD` to any other method, on every path.
///
/// Hummingbird's router answers a method no route has with its "not found" (`404`); every
/// route of the service takes `GET` and `HEAD` alone, so the method is checked first.
struct MethodMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Response.text(.methodNotAllowed, "only GET and HEAD\n")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        return try await next(request, context)
    }
}
