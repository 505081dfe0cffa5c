import Foundation
import WebImage

/// Cookies for ``ImageLoad/Request/handlesCookies``, through the configuration's
/// ``HTTPImageLoaderConfiguration/cookieStorage`` (AsyncHTTPClient keeps none).
extension HTTPImageLoader {
    /// `headers` with the store's cookies for `url` added to any `Cookie` header already there.
    func addingCookies(to headers: ImageLoad.Headers, for url: URL) -> ImageLoad.Headers {
        guard let store = cookieStore(), let stored = store.cookieHeader(for: url), !stored.isEmpty else {
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
    /// the URL that answered. `mainDocumentURL` is the image URL.
    func storeCookies(_ setCookies: [String], for url: URL, mainDocumentURL: URL) {
        guard !setCookies.isEmpty, let store = cookieStore() else { return }
        store.storeCookies(fromSetCookieFields: setCookies, for: url, mainDocumentURL: mainDocumentURL)
    }

    /// The configured store; without one, a warning (once per loader) that cookies are neither
    /// sent nor stored.
    private func cookieStore() -> (any HTTPCookieStoring)? {
        if let store = configuration.cookieStorage { return store }
        if !warnedAboutMissingCookieStore.exchange(true, ordering: .relaxed) {
            configuration.logger.warning(
                "[WebImage] a request handles cookies but the loader has no cookieStorage: none are sent or stored (import WebImageHTTPCookies and set HTTPImageLoaderConfiguration.cookieStorage, e.g. to HTTPCookieStorage.shared)"
            )
        }
        return nil
    }
}
