import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("Loopback test server and gate", .timeLimit(.minutes(3)))
struct LoopbackServerTests {
    @Test func countsRequestsPerPathAndAnswersUnknownPathsWith404() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/known", response: .ok(testBytes(5)))
            for query in ["?a=1", "?a=2"] {
                let url = URL(string: server.url("/known").absoluteString + query)!
                _ = try await loader.load(ImageLoad.Request(url: url)).result()
            }
            #expect(server.requestCount("/known") == 2)
            #expect(server.log.requests.map(\.target) == ["/known?a=1", "/known?a=2"])
            #expect(server.log.outcomes("/known") == [.completed, .completed])
            #expect(await loadError(loader.load(ImageLoad.Request(url: server.url("/unknown"))))?.statusCode == 404)
            #expect(server.baseURL.host == "127.0.0.1")
        }
    }

    @Test func gateCountsArrivalsAndReleasesOnOpen() async throws {
        let gate = TestGate()
        let passed = Task { try await gate.pass() }
        await gate.waitForArrivals(1)
        #expect(!gate.isOpen)
        gate.open()
        try await passed.value
        try await gate.pass()
        #expect(gate.arrivals == 2)
    }

    @Test func aParkedPassEndsWhenItsTaskIsCancelled() async throws {
        let gate = TestGate()
        let parked = Task { try await gate.pass() }
        await gate.waitForArrivals(1)
        parked.cancel()
        await #expect(throws: CancellationError.self) { try await parked.value }
    }

    @Test func waitingForArrivalsEndsWhenTheWaiterIsCancelled() async throws {
        let gate = TestGate()
        let waiter = Task { await gate.waitForArrivals(1) }
        waiter.cancel()
        await waiter.value  // returns although nothing ever arrives
        let late = Task { await gate.waitForArrivals(2) }
        try await Task.sleep(for: .milliseconds(20))
        late.cancel()
        await late.value
        #expect(gate.arrivals == 0)
    }
}

/// Shutting the server down while connections are being accepted.
@Suite("Loopback test server: shutdown", .timeLimit(.minutes(3)))
struct LoopbackServerShutdownTests {
    /// A plain TCP connection to 127.0.0.1:`port` (connected once the kernel accepts it), or -1.
    private static func connect(port: Int) -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connectSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    // A connection accepted while the accept loop stops used to be dropped without being closed,
    // and NIO traps on that ("Deinited NIOAsyncWriter without calling finish()"), killing the
    // test process.
    @Test func shuttingDownWhileConnectionsArriveNeitherCrashesNorHangs() async throws {
        for _ in 0..<40 {
            let server = try await LoopbackHTTPServer.start()
            server.route("/a", response: .ok(testBytes(10)))
            let descriptors = (0..<8).map { _ in Self.connect(port: server.port) }
            await server.shutdown()
            for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
            #expect(descriptors.allSatisfy { $0 >= 0 })
        }
    }
}

#if canImport(Glibc)
    private let connectSocket = Glibc.connect
#else
    private let connectSocket = Darwin.connect
#endif
