#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as a number, for the SSRF guard's classifier and host patterns.
///
/// Parsed strictly from text (`inet_pton`: dotted-quad IPv4, any IPv6 form, no zone) or taken
/// from a `sockaddr` that `getaddrinfo` returned. The lax IPv4 spellings (`2130706433`, `0x7f.1`,
/// `127.1`) are not literals here: they reach the guard as names, and `getaddrinfo` turns them into
/// the address a connection would use, exactly as it does for NIO.
package enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first (`127.0.0.1` is `0x7F00_0001`).
    case v4(UInt32)
    /// An IPv6 address, most significant byte first (`::1` is `1`).
    case v6(UInt128)

    /// The address written in `text` (no brackets, no zone), or nil when it is not a strict literal.
    package init?(literal text: String) {
        // C would read "127.0.0.1\0.example.com" as 127.0.0.1.
        guard !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = .v6(Self.number(of: v6))
            return
        }
        return nil
    }

    /// The address of an `AF_INET` or `AF_INET6` socket address, nil for any other family.
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self = .v4(UInt32(bigEndian: v4.s_addr))
        case AF_INET6:
            let v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self = .v6(Self.number(of: v6))
        default:
            return nil
        }
    }

    private static func number(of address: in6_addr) -> UInt128 {
        withUnsafeBytes(of: address) { bytes in bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }
    }

    /// The width of the address in bits: 32 or 128.
    var bitWidth: Int {
        switch self {
        case .v4: 32
        case .v6: 128
        }
    }

    /// Whether the first `length` bits of this address and `other` agree (false across families).
    func shares(prefix length: Int, with other: IPAddress) -> Bool {
        switch (self, other) {
        case (.v4(let a), .v4(let b)): length <= 0 || (a ^ b) >> (32 - min(length, 32)) == 0
        case (.v6(let a), .v6(let b)): length <= 0 || (a ^ b) >> (128 - min(length, 128)) == 0
        default: false
        }
    }

    /// Conventional text: dotted quad, or `inet_ntop`'s compressed IPv6 (`::1`, `::ffff:127.0.0.1`).
    package var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String(value >> UInt32($0) & 0xFF) }.joined(separator: ".")
        case .v6(let value):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { bytes in
                for index in 0..<16 { bytes[index] = UInt8(truncatingIfNeeded: value >> UInt128(8 * (15 - index))) }
            }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
            return String(nulTerminated: text)
        }
    }
}
