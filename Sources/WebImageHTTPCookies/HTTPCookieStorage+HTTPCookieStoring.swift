public import Foundation
public import WebImage

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Foundation's cookie storage as an HTTP loader's cookie store: `HTTPCookieStorage.shared`, or an
/// in-memory one such as `URLSessionConfiguration.ephemeral.httpCookieStorage`.
///
/// ```swift
/// configuration.cookieStorage = HTTPCookieStorage.shared
/// ```
extension HTTPCookieStorage: HTTPCookieStoring {
    /// The storage's cookies for `url`, as one `Cookie` header value.
    public func cookieHeader(for url: URL) -> String? {
        let cookies = self.cookies(for: url) ?? []
        guard let header = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !header.isEmpty else { return nil }
        return header
    }

    /// Parses and stores each `Set-Cookie` field on its own: joined with commas, an `Expires`
    /// date's comma would split a cookie.
    public func storeCookies(fromSetCookieFields fields: [String], for url: URL, mainDocumentURL: URL) {
        let cookies = fields.flatMap { HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url) }
        if !cookies.isEmpty { setCookies(cookies, for: url, mainDocumentURL: mainDocumentURL) }
    }
}
