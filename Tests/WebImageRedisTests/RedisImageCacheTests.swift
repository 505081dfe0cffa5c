import Foundation
import Synchronization
import MetricsTestKit
import Testing
import WebImage
import WebImageRedis
import WebImageTesting

/// ``RedisImageCache`` against a real server: the data-cache conformance suite, TTL, the size cap,
/// and what happens when Redis goes away.
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"))
struct RedisImageCacheTests {
    @Test func conformsToImageDataCaching() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let failures = await ImageDataCachingConformance.run {
            RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "conformance-\(UUID().uuidString)"))
        }
        #expect(failures == [])
        await client.close()
    }

    /// Namespaces are separate, even with glob characters in them.
    @Test func namespacesDoNotMix() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let first = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "a*"))
        let second = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "ab"))
        try await first.setData(Data([1]), forKey: "k", metadata: nil)
        try await second.setData(Data([2, 3]), forKey: "k", metadata: nil)
        #expect(try await first.count() == 1)
        #expect(try await second.count() == 1)
        #expect(try await first.totalBytes() == 1)
        try await first.removeAllData()
        #expect(try await second.data(forKey: "k") == Data([2, 3]))
    }

    @Test func timeToLiveFollowsMaxAge() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let cache = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "ttl", maxAge: .seconds(60)))
        try await cache.setData(Data([1, 2]), forKey: "k", metadata: nil)
        let ttl = try await client.send("PTTL", "webimage:ttl:k").integer ?? -9
        #expect(ttl > 0 && ttl <= 60_000, "PTTL \(ttl)")
        try await client.send("PEXPIRE", "webimage:ttl:k", 5000)   // a revalidation restarts the TTL
        #expect(try await cache.recordRevalidation(forKey: "k", http: HTTPCacheMetadata(etag: "\"e\"")))
        #expect(try await client.send("PTTL", "webimage:ttl:k").integer ?? 0 > 5000)
        let forever = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "forever", maxAge: nil))
        try await forever.setData(Data([1]), forKey: "k", metadata: nil)
        #expect(try await client.send("PTTL", "webimage:forever:k").integer == -1)
        // Expired by Redis: gone for the cache.
        let short = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "short", maxAge: .milliseconds(30)))
        try await short.setData(Data([1]), forKey: "k", metadata: nil)
        var gone = false
        for _ in 0..<100 where !gone {
            try await Task.sleep(for: .milliseconds(20))
            gone = try await short.entry(forKey: "k") == nil
        }
        #expect(gone)
    }

    @Test func entriesOverTheCapAreNotStored() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let cache = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "cap", maxEntrySize: 1000))
        try await cache.setData(Data(count: 1000), forKey: "k", metadata: nil)
        #expect(try await cache.containsData(forKey: "k"))
        try await cache.setData(Data(count: 1001), forKey: "k", metadata: nil)
        #expect(try await !cache.containsData(forKey: "k"), "an older entry stayed after an oversized store")
        #expect(try await cache.count() == 0)
    }

    /// Bytes and metadata live in one hash: one key per entry, read back whole.
    @Test func oneHashPerEntry() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let cache = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "layout"))
        try await cache.setData(Data([9, 9]), forKey: "https://x/a.png", metadata: CacheEntryMetadata(contentType: "image/png"))
        #expect(try await client.send("TYPE", "webimage:layout:https://x/a.png") == .simpleString("hash"))
        #expect(try await client.send("HGET", "webimage:layout:https://x/a.png", "ct").string == "image/png")
        #expect(try await client.send("HGET", "webimage:layout:https://x/a.png", "kid").string == "test-1")
        #expect(try await client.send("HSTRLEN", "webimage:layout:https://x/a.png", "mac").integer == 64)
        #expect(try await client.send("DBSIZE").integer == 1)
    }

    /// Redis killed mid-run: reads are misses and writes are skipped (nothing throws), the
    /// breaker opens after the threshold and stops calling; after a restart and the open period a
    /// probe closes it. Metrics count it all.
    @Test func degradesAndBreaksWhenRedisIsDown() async throws {
        let server = try await RedisTestServer()
        let metrics = TestMetrics()
        let clock = ManualCacheClock()
        let client = RedisClient(configuration: server.configuration())
        let cache = RedisImageCache(
            client: client, keys: try TestKeys.keyring(),
            configuration: .init(namespace: "down", breaker: .init(failureThreshold: 2, openDuration: .seconds(30))),
            clock: clock, metricsFactory: metrics)
        try await cache.setData(Data([1]), forKey: "k", metadata: nil)
        server.kill()
        #expect(try await cache.entry(forKey: "k") == nil)
        try await cache.setData(Data([2]), forKey: "k2", metadata: nil)
        #expect(cache.breaker.state == .open)
        #expect(try await !cache.containsData(forKey: "k"))     // not asked: the breaker is open
        await #expect(throws: WebImageError.self) { try await cache.count() }
        #expect(try metrics.expectCounter("webimage_redis_unavailable_total").totalValue == 2)
        #expect(try metrics.expectCounter("webimage_redis_skipped_total").totalValue == 2)
        #expect(try metrics.expectGauge("webimage_redis_breaker_state").lastValue == 2)
        try await server.start()
        #expect(try await cache.entry(forKey: "k") == nil)         // still open: Redis not asked
        clock.advance(by: 31)
        var closed = false
        for _ in 0..<100 where !closed {
            _ = try await cache.entry(forKey: "k")
            closed = cache.breaker.state == .closed
            if !closed {
                clock.advance(by: 31)
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(closed)
        #expect(try metrics.expectGauge("webimage_redis_breaker_state").lastValue == 0)
        try await cache.setData(Data([3]), forKey: "k", metadata: nil)
        #expect(try await cache.data(forKey: "k") == Data([3]))
    }

    @Test func withoutDegradingFailuresThrow() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let cache = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "strict", degradesWhenUnavailable: false))
        server.kill()
        do {
            _ = try await cache.entry(forKey: "k")
            Issue.record("no error from a dead server")
        } catch let error as WebImageError {
            #expect(error.code == .redisUnavailable)
        }
    }
}

/// The breaker's state machine on a manual clock (no server).
@Suite struct CircuitBreakerTests {
    @Test func opensAtTheThresholdAndProbesAfterTheOpenPeriod() {
        let clock = ManualCacheClock()
        let changes = TransitionLog()
        let breaker = CircuitBreaker(configuration: .init(failureThreshold: 3, openDuration: .seconds(10)), clock: clock) {
            changes.append("\($0.rawValue)>\($1.rawValue)")
        }
        #expect(breaker.state == .closed && breaker.allowsRequest())
        breaker.recordFailure()
        breaker.recordFailure()
        breaker.recordSuccess()             // a success resets the count
        breaker.recordFailure()
        breaker.recordFailure()
        #expect(breaker.state == .closed)
        breaker.recordFailure()
        #expect(breaker.state == .open && !breaker.allowsRequest())
        clock.advance(by: 9.9)
        #expect(!breaker.allowsRequest())
        clock.advance(by: 0.2)
        #expect(breaker.state == .halfOpen)
        #expect(breaker.allowsRequest())    // the probe
        #expect(!breaker.allowsRequest())   // only one at a time
        breaker.recordFailure()             // the probe failed: open again
        #expect(breaker.state == .open && !breaker.allowsRequest())
        clock.advance(by: 10)
        #expect(breaker.allowsRequest())
        breaker.recordSuccess()
        #expect(breaker.state == .closed && breaker.allowsRequest())
        #expect(changes.entries == ["closed>open", "open>halfOpen", "halfOpen>open", "open>halfOpen", "halfOpen>closed"])
    }
}

/// State changes seen by a breaker's callback.
final class TransitionLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ entry: String) { storage.withLock { $0.append(entry) } }
    var entries: [String] { storage.withLock { $0 } }
}
