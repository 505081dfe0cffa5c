public import Foundation

/// Where an HTTP loader reads and stores cookies for requests with
/// ``ImageLoad/Request/handlesCookies`` (SDWebImage's `handleCookies`).
///
/// Foundation's `HTTPCookieStorage` conforms in the `WebImageHTTPCookies` module. It is a module
/// of its own because on Linux `HTTPCookieStorage` lives in FoundationNetworking, which maps
/// libcurl and some 25 libraries into every process that links it: programs that never handle
/// cookies (the `webimage` tool among them) do not link it.
///
/// ```swift
/// import WebImageHTTPCookies
///
/// var configuration = HTTPImageLoaderConfiguration()
/// configuration.cookieStorage = HTTPCookieStorage.shared
/// ```
public protocol HTTPCookieStoring: AnyObject, Sendable {
    /// The value of the `Cookie` header to send to `url` (its cookies joined with `"; "`), or nil
    /// when the store holds none for it.
    func cookieHeader(for url: URL) -> String?

    /// Stores the cookies of a response from `url`, one `Set-Cookie` field value each.
    /// `mainDocumentURL` is the image URL the chain started from, for stores whose policy accepts
    /// only cookies from the main document's domain.
    func storeCookies(fromSetCookieFields fields: [String], for url: URL, mainDocumentURL: URL)
}
