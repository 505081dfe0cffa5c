import Foundation

/// The `Cache-Control` directives that decide a stored response's freshness (RFC 9111 §5.2.2),
/// read from the header's raw value.
///
/// Unknown directives are ignored; a `max-age` or `s-maxage` whose value is not a non-negative
/// integer counts as 0 (the response is stale at once, as RFC 9111 §4.2.1 asks of an invalid
/// lifetime); values over 2³¹ are capped there (§1.2.2).
///
/// ```swift
/// let directives = CacheControlDirectives("public, max-age=600, must-revalidate")
/// directives.maxAge           // 600
/// directives.mustRevalidate   // true
/// ```
public struct CacheControlDirectives: Sendable, Hashable {
    /// `max-age`: seconds the response stays fresh after it was made.
    public var maxAge: Int?
    /// `s-maxage`: `max-age` for shared caches (a service, a CDN), which it overrides there.
    public var sharedMaxAge: Int?
    /// `no-cache`: every use must be revalidated first (and a stale copy never answers an error).
    public var noCache = false
    /// `no-store`: the response must not be stored.
    public var noStore = false
    /// `must-revalidate`: once stale, the response must not be used without revalidating it.
    public var mustRevalidate = false
    /// `proxy-revalidate`: `must-revalidate` for shared caches.
    public var proxyRevalidate = false

    /// The directives of a `Cache-Control` value (`nil`: none).
    public init(_ header: String?) {
        guard let header else { return }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
            switch name {
            case "max-age": maxAge = Self.seconds(value)
            case "s-maxage": sharedMaxAge = Self.seconds(value)
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate": mustRevalidate = true
            case "proxy-revalidate": proxyRevalidate = true
            default: continue
            }
        }
    }

    /// A delta-seconds value, unquoted; 0 when it is not one, capped at 2³¹.
    private static func seconds(_ value: String?) -> Int {
        guard var text = value else { return 0 }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return 0 }
        return Int(text.prefix(11)).map { min($0, 2_147_483_648) } ?? 2_147_483_648
    }
}
