import WebImage

/// A host the SSRF guard allows or denies: a name, every name under a domain, an IP address or
/// an IP range.
///
/// - `img.example.com`: that name (any case, with or without a trailing dot).
/// - `*.example.com`: every name that ends in `.example.com`, at any depth; not `example.com` itself.
/// - `127.0.0.1`, `::1` or `[::1]`: that address.
/// - `10.0.0.0/8` or `fd00::/8`: every address in the range (the bits after the prefix must be 0).
///
/// A name pattern matches the host as the URL writes it; an address pattern matches an IP
/// literal in the URL and every address the host resolves to, and an IPv4 pattern also matches
/// the IPv6 forms that carry that IPv4 address (`::ffff:127.0.0.1`, `64:ff9b::7f00:1`, 6to4).
///
/// ```swift
/// let policy = HTTPURLPolicy.ssrfGuard(
///     allowHosts: [try HostPattern("127.0.0.1")],
///     denyHosts: [try HostPattern("*.internal.example.com"), try HostPattern("203.0.113.0/24")])
/// ```
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    enum Form: Hashable {
        case name(String)
        case domain(String)
        case range(IPAddress, length: Int)
    }

    let form: Form

    /// Parses a pattern; throws ``WebImage/WebImageError/Code/invalidURL`` naming what is wrong
    /// (an empty pattern, a lone `*`, a bad name or address, a prefix length out of range).
    public init(_ pattern: String) throws {
        func invalid(_ reason: String) -> WebImageError {
            WebImageError(.invalidURL, "host pattern \"\(pattern)\" is not valid: \(reason)")
        }
        var text = pattern.lowercased()
        guard !text.isEmpty else { throw invalid("it is empty") }
        if text.hasPrefix("*.") {
            text.removeFirst(2)
            guard let name = HostName.normalized(text), IPAddress(literal: name) == nil else {
                throw invalid("\"*.\" must be followed by a host name")
            }
            form = .domain(name)
            return
        }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let rest = text[text.index(after: close)...]
            let inside = String(text[text.index(after: text.startIndex)..<close])
            guard case .v6? = IPAddress(literal: inside) else { throw invalid("brackets must hold an IPv6 address") }
            guard rest.isEmpty || rest.hasPrefix("/") else { throw invalid("text follows \"]\"") }
            text = inside + rest
        }
        if let slash = text.firstIndex(of: "/") {
            let lengthText = text[text.index(after: slash)...]
            guard let address = IPAddress(literal: String(text[..<slash])) else {
                throw invalid("\(text[..<slash]) is not an IP address")
            }
            guard !lengthText.isEmpty, lengthText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let length = Int(lengthText), length <= address.bitWidth
            else { throw invalid("the prefix length must be 0…\(address.bitWidth)") }
            guard address.shares(prefix: address.bitWidth, with: address.masked(to: length)) else {
                throw invalid("\(address) has bits set after the first \(length); the range starts at \(address.masked(to: length))")
            }
            form = .range(address, length: length)
            return
        }
        if let address = IPAddress(literal: text) {
            form = .range(address, length: address.bitWidth)
            return
        }
        guard text != "*" else { throw invalid("\"*\" would match every host; leave the policy out instead") }
        guard let name = HostName.normalized(text) else {
            throw invalid("it is neither a host name, \"*.\" and a domain, an IP address nor an IP range")
        }
        form = .name(name)
    }

    /// The pattern in canonical form: lowercase, no trailing dot, addresses compressed, no brackets.
    public var description: String {
        switch form {
        case .name(let name): name
        case .domain(let name): "*.\(name)"
        case .range(let address, let length): length == address.bitWidth ? "\(address)" : "\(address)/\(length)"
        }
    }

    /// Whether the pattern matches the host as written (normalized by ``HostName/normalized(_:)``,
    /// brackets removed): names and domains by text, addresses when `host` is an IP literal.
    package func matches(host: String) -> Bool {
        switch form {
        case .name(let name): host == name
        case .domain(let name): host.hasSuffix("." + name)
        case .range: IPAddress(literal: host).map(matches(address:)) ?? false
        }
    }

    /// Whether an address pattern holds `address` or the IPv4 address an IPv6 form carries.
    package func matches(address: IPAddress) -> Bool {
        guard case .range(let prefix, let length) = form else { return false }
        if address.shares(prefix: length, with: prefix) { return true }
        if let embedded = address.carriedIPv4 { return embedded.shares(prefix: length, with: prefix) }
        return false
    }

    /// Whether this is an address or range pattern (which needs the host's addresses to match).
    var isAddressPattern: Bool {
        if case .range = form { return true }
        return false
    }
}

/// Host-name text as the guard compares it.
enum HostName {
    /// `text` lowercased without one trailing dot, or nil when it is not a host name: labels of
    /// 1…63 ASCII letters, digits, `-` or `_`, at most 253 characters in all.
    static func normalized(_ text: String) -> String? {
        var name = text.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard
            labels.allSatisfy({ label in
                (1...63).contains(label.utf8.count)
                    && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
            })
        else { return nil }
        return name
    }
}

extension IPAddress {
    /// The address with every bit after the first `length` cleared.
    func masked(to length: Int) -> IPAddress {
        switch self {
        case .v4(let value): .v4(length <= 0 ? 0 : length >= 32 ? value : value & ~(UInt32.max >> UInt32(length)))
        case .v6(let value): .v6(length <= 0 ? 0 : length >= 128 ? value : value & ~(UInt128.max >> UInt128(length)))
        }
    }
}
