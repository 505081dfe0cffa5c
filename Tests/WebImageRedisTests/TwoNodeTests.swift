import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageRedis
import WebImageTesting

/// Two managers ("nodes") sharing one redis-server and one loopback origin that counts requests.
/// The outage test waits out command timeouts and breaker periods: on a loaded 2-core CI machine
/// it once needed more than 2 minutes.
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"), .timeLimit(.minutes(5)))
struct TwoNodeTests {
    /// 20 concurrent fetches of one URL across both nodes: one origin request.
    @Test func oneOriginFetchAcrossNodes() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let bytes = try RedisFixture.png(seed: 1)
        let gate = TestGate()
        origin.route("/one.png", response: TestResponse(status: 200, headers: [("Content-Type", "image/png")],
                                                         body: [.wait(gate)] + TestResponse.steps(bytes)))
        // Generous timeouts: this test is about the lock, not about outages (a command slower than
        // the timeout on a loaded machine would rightly make a node fetch by itself).
        let patient = RedisCoordinatedLoader.Configuration(waitTimeout: .seconds(60), pollInterval: .milliseconds(10))
        let nodes = [
            try RedisNode(server: redis, commandTimeout: .seconds(10), coordination: patient),
            try RedisNode(server: redis, commandTimeout: .seconds(10), coordination: patient),
        ]
        let url = origin.url("/one.png")
        try await withThrowingTaskGroup(of: PixelSize.self) { group in
            for index in 0..<20 {
                group.addTask { try await nodes[index % 2].manager.image(for: url).image.pixelSize }
            }
            await gate.waitForArrivals(1)
            try await Task.sleep(for: .milliseconds(100))   // let the other node reach its wait
            gate.open()
            for try await size in group { #expect(size == PixelSize(width: 40, height: 30)) }
        }
        #expect(origin.requestCount("/one.png") == 1)
        // Both nodes now hold it on disk, Redis too; a third node answers without the origin.
        let third = try RedisNode(server: redis, commandTimeout: .seconds(10), coordination: patient)
        _ = try await third.manager.image(for: url)
        #expect(origin.requestCount("/one.png") == 1)
        for node in nodes + [third] { await node.shutdown() }
        await origin.shutdown()
    }

    /// A lock whose holder died (never released, long TTL): the others fetch after the wait timeout.
    @Test func deadLockHolderMeansFallbackAfterTimeout() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        origin.route("/dead.png", response: .ok(try RedisFixture.png(seed: 2)))
        let node = try RedisNode(server: redis, coordination: .init(waitTimeout: .milliseconds(300), pollInterval: .milliseconds(10)))
        let url = origin.url("/dead.png")
        let admin = RedisClient(configuration: redis.configuration())
        try await admin.send("SET", "webimage-lock:nodes:\(url.absoluteString)", "someone-gone", "PX", 60_000)
        let start = ContinuousClock.now
        _ = try await node.manager.image(for: url)
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(origin.requestCount("/dead.png") == 1)
        await node.shutdown()
        await origin.shutdown()
    }

    /// The holder is cancelled mid-download: it releases the lock and the waiting node fetches.
    @Test func cancelledHolderLetsOthersFetch() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let bytes = try RedisFixture.png(seed: 3)
        let served = Mutex(0)
        origin.route("/cancel.png") { _ in
            let first = served.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            return first ? TestResponse(status: 200, headers: [("Content-Type", "image/png")], body: [.hang]) : .ok(bytes)
        }
        let holder = try RedisNode(server: redis)
        let waiter = try RedisNode(server: redis)
        let url = origin.url("/cancel.png")
        let holderTask = Task { try await holder.manager.image(for: url) }
        await origin.waitForRequests("/cancel.png", count: 1)
        let waiterTask = Task { try await waiter.manager.image(for: url) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(origin.requestCount("/cancel.png") == 1, "the second node did not wait")
        holderTask.cancel()
        let image = try await waiterTask.value.image
        #expect(image.pixelSize == PixelSize(width: 40, height: 30))
        #expect(origin.requestCount("/cancel.png") == 2)
        await holder.shutdown()
        await waiter.shutdown()
        await origin.shutdown()
    }

    /// Redis paused (SIGSTOP) mid-run, then killed: every fetch still succeeds from the local tiers
    /// and the origin, and the breaker opens; after a restart it closes again.
    @Test func fetchesSurviveRedisOutages() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        for index in 0..<30 { origin.route("/img\(index).png", response: .ok(try RedisFixture.png(seed: index))) }
        let node = try RedisNode(server: redis, breaker: .init(failureThreshold: 2, openDuration: .milliseconds(200)))
        for index in 0..<10 { _ = try await node.manager.image(for: origin.url("/img\(index).png")) }
        #expect(node.redis.breaker.state == .closed)
        redis.pause()
        for index in 10..<20 {
            let image = try await node.manager.image(for: origin.url("/img\(index).png")).image
            #expect(image.pixelSize.width == 40)
        }
        #expect(node.redis.breaker.state != .closed)
        redis.resume()
        redis.kill()
        for index in 20..<25 { _ = try await node.manager.image(for: origin.url("/img\(index).png")) }
        try await redis.start()
        var closed = false
        for index in 25..<30 where !closed {
            try await Task.sleep(for: .milliseconds(250))
            _ = try await node.manager.image(for: origin.url("/img\(index).png"))
            closed = node.redis.breaker.state == .closed
        }
        #expect(closed, "the breaker did not close after Redis came back")
        for index in 0..<25 { #expect(origin.requestCount("/img\(index).png") == 1) }
        await node.shutdown()
        await origin.shutdown()
    }
}
