import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Free loopback ports for servers a test starts as child processes (redis-server, moto, nginx):
/// bind port 0, read what the kernel chose, close; and whether something listens yet.
public enum FreePort {
    /// A port on 127.0.0.1 that was free a moment ago.
    public static func next() throws -> Int {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw FreePortError("socket() failed") }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw FreePortError("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw FreePortError("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func canConnect(port: Int) -> Bool {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
        private static let streamType = SOCK_STREAM
    #endif

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// A free port could not be found.
public struct FreePortError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
