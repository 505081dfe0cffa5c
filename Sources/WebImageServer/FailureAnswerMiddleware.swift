import Hummingbird
import Logging
import WebImage

/// Turns what the routes throw into short text answers, `{status} {code}: {message}`, with
/// caching headers: a `503` gets `Retry-After` and `Cache-Control: no-store`, any other failure
/// is cached for ``ImageServerConfiguration/errorCacheMaxAge`` seconds.
///
/// - ``StagedError`` (the image service): its ``FailureAnswer``; when the client is told less than
///   the error says (addresses, an origin's answer), the detail is logged at `notice`.
/// - ``FailureAnswer``: as it is.
/// - Hummingbird's errors (the router's "not found" for a path no route takes): their status.
/// - Anything else: `500`, logged at `error`.
struct FailureAnswerMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let configuration: ImageServerConfiguration
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as StagedError {
            let answer = FailureAnswer(error.error, stage: error.stage)
            if answer.message != error.error.message {
                logger.notice(
                    "\(request.method.rawValue) \(request.rawPath.path) \(answer.status) \(error.error.code.rawValue): \(error.error.message)")
            }
            return response(answer)
        } catch let answer as FailureAnswer {
            return response(answer)
        } catch let error as any HTTPResponseError {
            let status = error.status
            let code = status == .notFound ? "notFound" : "httpError"
            let message = status == .notFound ? "no such path" : status.reasonPhrase.lowercased()
            return response(FailureAnswer(status: status.code, code: code, message: message))
        } catch {
            logger.error("\(request.method.rawValue) \(request.rawPath.path) failed: \(error)")
            return response(FailureAnswer(status: 500, code: "internalError", message: "the service failed"))
        }
    }

    private func response(_ answer: FailureAnswer) -> Response {
        var response = Response.text(HTTPResponse.Status(code: answer.status), "\(answer.status) \(answer.code): \(answer.message)\n")
        if answer.status == 503 {
            response.headers[.retryAfter] = String(configuration.retryAfterSeconds)
            response.headers[.cacheControl] = "no-store"
        } else {
            response.headers[.cacheControl] = "public, max-age=\(configuration.errorCacheMaxAge)"
        }
        return response
    }
}
