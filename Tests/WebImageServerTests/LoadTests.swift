import AsyncHTTPClient
import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

@testable import WebImageServer

@Suite("Service: coalescing, overload, metrics, shutdown", .serialized)
struct LoadTests {
    /// An origin route that holds its answer until `gate` opens.
    static func gated(_ origin: LoopbackHTTPServer, _ path: String, gate: TestGate) {
        origin.route(path) { _ in
            try? await gate.pass()
            return .ok(Fixtures.jpeg, contentType: "image/jpeg")
        }
    }

    @Test("100 concurrent requests for one source make one origin request, same options or not")
    func coalescing() async throws {
        try await ServiceHarness.with(configure: { $0.queueLimit = 200 }) { (harness) async throws in
            let gate = TestGate()
            Self.gated(harness.origin, "/a.jpg", gate: gate)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    // Half ask for one result, half for ten others: the download is shared by all.
                    let options = index % 2 == 0 ? "w:64" : "w:\(100 + index % 10)"
                    group.addTask { try await harness.image(options, "/a.jpg", ext: "png").status }
                }
                await gate.waitForArrivals(1)
                gate.open()
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                #expect(statuses == Array(repeating: 200, count: 100))
            }
            #expect(harness.origin.requestCount("/a.jpg") == 1)
        }
    }

    @Test("overload: 503 with Retry-After beyond the slots and the queue, then recovery")
    func overload() async throws {
        try await ServiceHarness.with(configure: {
            $0.concurrency = 1
            $0.queueLimit = 1
            $0.retryAfterSeconds = 2
        }) { (harness) async throws in
            // Slots are for processing (fetches are bounded by the loader): a slow render holds the one slot.
            harness.origin.route("/slow.svg", response: .ok(HostileLoadTests.slowSVG, contentType: "image/svg+xml"))
            harness.origin.route("/b.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let limiter = harness.server.service.limiter
            let running = Task { try await harness.image("rs:fit:1000:1000", "/slow.svg", ext: "png").status }
            try await HostileLoadTests.waitUntil("the slow render") { limiter.running == 1 }
            let queued = Task { try await harness.image("w:11", "/b.jpg", ext: "png").status }
            try await HostileLoadTests.waitUntil("a queued request") { limiter.queued == 1 }
            let refused = try await harness.image("w:12", "/b.jpg", ext: "png")
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "2")
            #expect(refused.header("Cache-Control") == "no-store")
            #expect(try await running.value == 200)
            #expect(try await queued.value == 200)
            #expect(try await harness.image("w:12", "/b.jpg", ext: "png").status == 200, "recovered")
            let metrics = try await harness.request("/metrics").text
            #expect(metrics.contains(#"webimage_http_requests_total{status="503"} 1"#))
            #expect(metrics.contains("webimage_overload_refusals_total 1"))
        }
    }

    @Test("/health, /ready and /metrics")
    func operations() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            #expect(try await harness.request("/health").status == 200)
            #expect(try await harness.request("/ready").status == 200)
            _ = try await harness.image("w:32", "/a.jpg", ext: "png")
            _ = try await harness.image("w:32", "/a.jpg", ext: "png")
            _ = try await harness.image("zz:1", "/a.jpg")
            let metrics = try await harness.request("/metrics")
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = metrics.text
            for line in [
                #"webimage_http_requests_total{status="200"} 4"#,  // health, ready and two images
                #"webimage_http_requests_total{status="400"} 1"#,
                #"webimage_cache_hits_total{tier="memory"} 1"#,
                "webimage_cache_misses_total 1",
                "webimage_origin_requests_total 1",
                "webimage_source_bytes_total \(Fixtures.jpeg.count)",
                #"webimage_stage_duration_seconds_count{stage="decode"} 1"#,
                #"webimage_stage_duration_seconds_count{stage="fetch"} 1"#,
                "webimage_queue_depth 0",
                "webimage_response_bytes_total",
            ] {
                #expect(text.contains(line), "\(line) in\n\(text)")
            }
        }
    }

    @Test("graceful shutdown: ready turns off, the running request finishes, then run returns")
    func gracefulShutdown() async throws {
        let harness = try await ServiceHarness.start()
        let gate = TestGate()
        Self.gated(harness.origin, "/slow.jpg", gate: gate)
        let running = Task { try await harness.image("w:10", "/slow.jpg", ext: "png").status }
        await gate.waitForArrivals(1)
        let stopping = Task { await harness.server.shutdown() }
        while harness.server.readiness.isReady { try await Task.sleep(for: .milliseconds(5)) }
        gate.open()
        #expect(try await running.value == 200, "the request in flight completes")
        try await harness.client.shutdown()
        await stopping.value
        try await harness.runner.value
        let client = ServiceHarness.makeClient()
        do {
            let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(harness.port)/health"), timeout: .seconds(10))
            Issue.record("the server still answers after shutdown: \(response.status)")
        } catch {}
        try await client.shutdown()
        await harness.origin.shutdown()
    }
}
