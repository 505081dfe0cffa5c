import Hummingbird

/// Answers a `HEAD` with the headers its `GET` would have, and no body.
///
/// An answer made from validators alone has no length to state: it keeps no `Content-Length`
/// (rather than a `0` for the empty body).
struct HeadAnswerMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard request.method == .head else { return response }
        let length = response.headers[.contentLength]
        var head = response.createHeadResponse()
        if length == nil { head.headers[.contentLength] = nil }
        return head
    }
}
