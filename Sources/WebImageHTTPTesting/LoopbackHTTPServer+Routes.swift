public import Foundation
import Synchronization

extension LoopbackHTTPServer {
    /// Answers the requests to `path` with `responses` in order, then the last one for every
    /// later request (a `503` then a `200`: `[.status(503), .ok(bytes)]`).
    public func routeSequence(_ path: String, _ responses: [TestResponse]) {
        precondition(!responses.isEmpty, "routeSequence needs at least one response")
        let next = Mutex(0)
        route(path) { _ in
            let index = next.withLock { index in
                defer { index += 1 }
                return min(index, responses.count - 1)
            }
            return responses[index]
        }
    }

    /// Routes `from`, then `from-1` … `from-(hops-1)`, each redirecting to the next, the last to
    /// `target`: `hops` redirects in all.
    public func routeRedirectChain(from path: String, hops: Int, to target: String) {
        let names = [path] + (1..<max(1, hops)).map { "\(path)-\($0)" }
        for (index, name) in names.enumerated() {
            let next = index + 1 < names.count ? names[index + 1] : target
            route(name, response: .redirect(to: next))
        }
    }

    /// Serves `data` with HTTP validators and freshness headers, answering `304` without a body
    /// when `If-None-Match` matches the ETag or `If-Modified-Since` equals the Last-Modified date.
    public func routeConditional(
        _ path: String, data: Data, etag: String, lastModified: String, contentType: String = "image/png",
        cacheControl: String = "max-age=60", expires: String = "Thu, 01 Jan 2037 00:00:00 GMT",
        date: String = "Sun, 22 Nov 2026 06:00:00 GMT", age: Int = 5
    ) {
        let freshness = [
            ("ETag", etag), ("Last-Modified", lastModified), ("Cache-Control", cacheControl),
            ("Expires", expires), ("Date", date), ("Age", String(age)),
        ]
        route(path) { request in
            let matchesTag = request.header("If-None-Match") == etag
            let matchesDate = request.header("If-Modified-Since") == lastModified
            if matchesTag || matchesDate {
                return TestResponse(status: 304, headers: freshness)
            }
            return .ok(data, contentType: contentType, headers: freshness)
        }
    }

    /// Serves `response` only to requests with these basic-auth credentials; others get `401`
    /// with `WWW-Authenticate: Basic realm="<realm>"`.
    public func routeBasicAuth(
        _ path: String, user: String, password: String, realm: String = "webimage-test", response: TestResponse
    ) {
        route(path) { request in
            if let credentials = request.basicCredentials, credentials.user == user, credentials.password == password {
                return response
            }
            return .status(401, "unauthorized", headers: [("WWW-Authenticate", "Basic realm=\"\(realm)\"")])
        }
    }
}
