import Foundation
import WebImage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cookies for ``ImageLoad/Request/handlesCookies``, through Foundation's `HTTPCookieStorage`
/// (AsyncHTTPClient keeps none).
extension HTTPImageLoader {
    /// `headers` with the storage's cookies for `url` added to any `Cookie` header already there.
    func addingCookies(to headers: ImageLoad.Headers, for url: URL) -> ImageLoad.Headers {
        let cookies = configuration.cookieStorage.cookies(for: url) ?? []
        guard let stored = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !stored.isEmpty else {
            return headers
        }
        var result = headers
        if let existing = headers["Cookie"], !existing.isEmpty {
            result["Cookie"] = existing + "; " + stored
        } else {
            result["Cookie"] = stored
        }
        return result
    }

    /// Stores the `Set-Cookie` fields of one response (a redirect hop's or the final one's) for
    /// the URL that answered. `mainDocumentURL` is the image URL, for storages whose policy
    /// accepts only cookies from the main document's domain.
    func storeCookies(_ setCookies: [String], for url: URL, mainDocumentURL: URL) {
        guard !setCookies.isEmpty else { return }
        // One field at a time: joined with commas, an `Expires` date's comma would split a cookie.
        let cookies = setCookies.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        if !cookies.isEmpty { configuration.cookieStorage.setCookies(cookies, for: url, mainDocumentURL: mainDocumentURL) }
    }
}
