import NIOPosix
import WebImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a host name into the addresses a connection to it may use: the SSRF guard's view of DNS.
///
/// ``system`` asks `getaddrinfo` with the hints NIO's own resolver uses (any family, TCP), on
/// NIO's blocking-I/O thread pool so that a slow DNS server never blocks the cooperative pool.
/// Tests inject a table instead (`evil.test` → `10.0.0.1`).
package struct HostResolver: Sendable {
    /// The addresses of a host name, or a thrown ``WebImage/WebImageError``.
    package let resolve: @Sendable (String) async throws -> [IPAddress]

    /// A resolver from a closure.
    package init(_ resolve: @escaping @Sendable (String) async throws -> [IPAddress]) {
        self.resolve = resolve
    }

    /// The system resolver: `getaddrinfo` on `NIOThreadPool.singleton`. A failure is a
    /// ``WebImage/WebImageError/Code/networkError`` naming the host and `gai_strerror`'s reason.
    package static let system = HostResolver { host in
        try await NIOThreadPool.singleton.runIfActive { try HostResolver.addresses(of: host) }
    }

    /// `getaddrinfo`'s answers for `host`, each address once, in its order (blocking).
    static func addresses(of host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw WebImageError(.networkError, "could not resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var result: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr.flatMap({ IPAddress(UnsafePointer($0)) }), !result.contains(address) {
                result.append(address)
            }
            entry = current.pointee.ai_next
        }
        return result
    }
}
