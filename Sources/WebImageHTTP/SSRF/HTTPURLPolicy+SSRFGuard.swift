import WebImage

extension HTTPURLPolicy {
    /// Resolves the host and refuses loopback, private, link-local, multicast, unspecified and
    /// IPv4-mapped forms of them (and denied hosts) unless allowed.
    ///
    /// For the first URL and every redirect hop, before the loader connects:
    /// 1. The host is taken as AsyncHTTPClient will connect to it (percent-decoded, brackets
    ///    removed); one that is neither a host name (ASCII letters, digits, `-`, `_`, dots) nor
    ///    an IP literal is refused.
    /// 2. A host that matches a `denyHosts` pattern is refused.
    /// 3. A host whose name matches an `allowHosts` name or domain pattern is allowed (still
    ///    resolved first when `denyHosts` holds address patterns, which then refuse it).
    /// 4. Otherwise the host is resolved with `getaddrinfo` (off the cooperative pool), which reads
    ///    the lax IPv4 spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`, `0`) as the
    ///    addresses NIO would connect to. Every address must pass: one matching an address pattern
    ///    of `denyHosts` refuses, one matching an address pattern of `allowHosts` passes, and any
    ///    other special-purpose address refuses the host (unspecified, loopback, private, shared
    ///    CGNAT, link-local with the cloud metadata services, multicast, broadcast, reserved,
    ///    documentation, benchmarking; IPv4-mapped, NAT64 and 6to4 addresses by the IPv4 address
    ///    they carry).
    ///
    /// A refusal throws ``WebImage/WebImageError/Code/urlRefused`` naming the URL, the hop, the
    /// host and the reason; a host that does not resolve throws
    /// ``WebImage/WebImageError/Code/networkError``. Redirects to other schemes are refused by the
    /// loader before any policy runs.
    ///
    /// DNS rebinding: the guard resolves the host, then AsyncHTTPClient resolves it again to
    /// connect (or reuses a pooled connection to the same host). A name server that answers a
    /// public address to the guard and a private one a moment later can slip through that gap;
    /// AsyncHTTPClient has no per-request resolver or address pin to close it (its `dnsOverride`
    /// is fixed per client). Where that matters, allow only trusted source hosts, or put the
    /// service behind an egress proxy or firewall that refuses private destinations.
    ///
    /// ```swift
    /// var configuration = HTTPImageLoaderConfiguration()
    /// configuration.urlPolicy = .ssrfGuard(
    ///     allowHosts: [try HostPattern("127.0.0.1")],       // a local origin, for tests
    ///     denyHosts: [try HostPattern("*.internal.example.com")])
    /// ```
    public static func ssrfGuard(allowHosts: [HostPattern] = [], denyHosts: [HostPattern] = []) -> HTTPURLPolicy {
        ssrfGuard(allowHosts: allowHosts, denyHosts: denyHosts, resolver: .system)
    }

    /// ``ssrfGuard(allowHosts:denyHosts:)`` with another resolver for host names (tests map
    /// names such as `evil.test` to chosen addresses). IP literals never reach the resolver.
    package static func ssrfGuard(allowHosts: [HostPattern], denyHosts: [HostPattern], resolver: HostResolver) -> HTTPURLPolicy {
        let rules = SSRFGuard(allow: allowHosts, deny: denyHosts, resolver: resolver)
        return HTTPURLPolicy { hop in try await rules.check(hop) }
    }
}

/// The SSRF guard's rules (see ``HTTPURLPolicy/ssrfGuard(allowHosts:denyHosts:)``).
struct SSRFGuard: Sendable {
    let allow: [HostPattern]
    let deny: [HostPattern]
    let resolver: HostResolver

    /// Every character a host name, an IP literal or an IPv6 zone (`%eth0`) is written with.
    private static let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:%".unicodeScalars)

    func check(_ hop: HTTPRequestHop) async throws {
        // `URL.host` is what AsyncHTTPClient connects to: percent-decoded, brackets removed on Linux.
        let written = hop.url.host ?? ""
        func refused(_ reason: String) -> WebImageError {
            let which = hop.redirectedFrom.map { " (redirect \(hop.number) from \($0.absoluteString))" } ?? ""
            return WebImageError(.urlRefused, "the SSRF guard refused \(hop.url.absoluteString)\(which): \(reason)")
        }
        var host = written
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // Before any parsing: C APIs (inet_pton, getaddrinfo) would stop at a NUL that the
        // patterns, which compare the whole text, do not.
        guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && Self.hostCharacters.contains($0) }) else {
            throw refused("the host \"\(written)\" is neither a host name nor an IP address")
        }
        let literal: IPAddress?
        let name: String
        if let zone = host.firstIndex(of: "%"), case .v6(let value)? = IPAddress(literal: String(host[..<zone])) {
            // A scoped IPv6 literal (`fe80::1%eth0`): getaddrinfo returns the address itself.
            literal = .v6(value)
            name = host.lowercased()
        } else if let address = IPAddress(literal: host) {
            literal = address
            name = host.lowercased()
        } else if let normalized = HostName.normalized(host) {
            literal = nil
            name = normalized
        } else {
            throw refused("the host \"\(written)\" is neither a host name nor an IP address")
        }
        if let pattern = deny.first(where: { $0.matches(host: name) }) {
            throw refused("the host \(name) is denied by the pattern \(pattern)")
        }
        let allowedByName = allow.contains { $0.matches(host: name) }
        if allowedByName && !deny.contains(where: \.isAddressPattern) { return }
        let addresses: [IPAddress]
        if let literal { addresses = [literal] } else { addresses = try await resolver.resolve(host) }
        guard !addresses.isEmpty else { throw refused("the host \(name) resolves to no address") }
        func subject(_ address: IPAddress) -> String {
            literal == nil ? "the host \(name) resolves to \(address), which is" : "\(address) is"
        }
        for address in addresses {
            if let pattern = deny.first(where: { $0.matches(address: address) }) {
                throw refused("\(subject(address)) denied by the pattern \(pattern)")
            }
        }
        if allowedByName { return }
        for address in addresses where !allow.contains(where: { $0.matches(address: address) }) {
            if let restriction = address.restriction {
                throw refused("\(subject(address)) \(restriction); allow it with a host pattern if it is trusted")
            }
        }
    }
}
