public import Foundation

/// One request an ``HTTPImageLoader`` is about to send: the first one of a load (hop 0) or a
/// redirect it follows.
public struct HTTPRequestHop: Sendable, Hashable {
    /// The URL the request goes to (absolute, already checked: http or https, a host, a valid port).
    public var url: URL
    /// 0 for the first request, 1 for the first redirect, and so on.
    public var number: Int
    /// The URL whose response redirected here (nil for the first request).
    public var redirectedFrom: URL?

    /// A hop from explicit values.
    public init(url: URL, number: Int, redirectedFrom: URL? = nil) {
        self.url = url
        self.number = number
        self.redirectedFrom = redirectedFrom
    }
}

/// A rule every URL the loader sends a request to must pass: the first URL and every redirect
/// hop, before any connection is made. A server fetching URLs a stranger chose puts its SSRF
/// rules here (no private addresses, allowed hosts, ports, …).
///
/// The loader checks the URL's shape first (scheme http or https, a host, a port in 1…65535),
/// then asks the policy. A policy that throws a ``WebImage/WebImageError`` fails the load with
/// that error; any other error fails it with code ``WebImage/WebImageError/Code/urlRefused``
/// (the message names the URL and the hop, the cause is the thrown error).
///
/// ``ssrfGuard(allowHosts:denyHosts:)`` is the built-in policy for servers: it resolves each
/// hop's host and refuses private, loopback, link-local and other special-purpose addresses.
///
/// ```swift
/// struct NotAllowed: Error {}
/// var configuration = HTTPImageLoaderConfiguration()
/// configuration.urlPolicy = HTTPURLPolicy { hop in
///     guard hop.url.host == "images.example.com", hop.url.scheme == "https" else { throw NotAllowed() }
/// }
/// ```
public struct HTTPURLPolicy: Sendable {
    /// The rule; it returns to allow the hop and throws to refuse it.
    public let check: @Sendable (HTTPRequestHop) async throws -> Void

    /// A policy from a closure.
    public init(_ check: @escaping @Sendable (HTTPRequestHop) async throws -> Void) {
        self.check = check
    }
}
