import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("Loopback test server and gate", .timeLimit(.minutes(1)))
struct LoopbackServerTests {
    @Test func countsRequestsPerPathAndAnswersUnknownPathsWith404() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/known", response: .ok(testBytes(5)))
            for query in ["?a=1", "?a=2"] {
                let url = URL(string: server.url("/known").absoluteString + query)!
                _ = try await loader.load(ImageLoadRequest(url: url)).result()
            }
            #expect(server.requestCount("/known") == 2)
            #expect(server.log.requests.map(\.target) == ["/known?a=1", "/known?a=2"])
            #expect(server.log.outcomes("/known") == [.completed, .completed])
            #expect(await loadError(loader.load(ImageLoadRequest(url: server.url("/unknown"))))?.statusCode == 404)
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
