import Foundation
import WebImage

/// How the loader follows a redirect itself (AsyncHTTPClient's own following is off, so that
/// every hop is checked before a connection is made): which statuses redirect, where to, and
/// what the next request keeps.
enum HTTPRedirect {
    /// The statuses that redirect: 301, 302, 303, 307 and 308.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Where a response with `status` and `location` redirects a request for `current` (a
    /// relative `Location` resolved against it), or nil when it does not redirect (another
    /// status, or no `Location`: the response is then the final one). A `Location` that is no
    /// URL at all is an `invalidURL` error.
    static func target(status: Int, location: String?, from current: URL) throws -> URL? {
        guard statuses.contains(status),
            let location = location?.trimmingCharacters(in: .whitespaces), !location.isEmpty
        else { return nil }
        guard let resolved = URL(string: location, relativeTo: current)?.absoluteURL else {
            throw WebImageError(
                .invalidURL, "\(current.absoluteString) redirected to \(location), which is not a valid URL")
        }
        return resolved
    }

    /// The request that follows `request` to `target` after a `status` redirect: 303 (and 301
    /// or 302 after a POST) becomes a GET without a body; a hop to another origin (scheme, host
    /// or port) drops the `Authorization`, `Proxy-Authorization` and `Cookie` headers, which
    /// then stay dropped for the rest of the chain.
    static func following(_ request: ImageLoad.URLRequest, to target: URL, status: Int) -> ImageLoad.URLRequest {
        var next = request
        next.url = target
        let method = request.method.uppercased()
        if (status == 303 && method != "GET" && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            next.method = "GET"
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers[name] = nil
            }
        }
        if HTTPURLShape.origin(of: request.url) != HTTPURLShape.origin(of: target) {
            for name in ["Authorization", "Proxy-Authorization", "Cookie"] {
                next.headers[name] = nil
            }
        }
        return next
    }
}
