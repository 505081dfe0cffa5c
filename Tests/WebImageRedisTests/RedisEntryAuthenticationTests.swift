import Foundation
import MetricsTestKit
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageRedis
import WebImageTesting

/// Issue 24, finding 7: a writer to Redis must not decide what the nodes serve. Entries are
/// signed; one written straight into Redis (replaced bytes, a forged MAC, an unknown key id, the
/// old unsigned format, changed metadata, an entry moved from another key) is a miss, never
/// copied to the disk, and the origin is asked instead.
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"), .timeLimit(.minutes(2)))
struct RedisEntryAuthenticationTests {
    /// How a test tampers with the entry a node stored.
    enum Poison: String, CaseIterable, CustomTestStringConvertible {
        case replacedBytes, forgedMAC, unknownKeyID, oldFormat, changedContentType, movedFromAnotherKey
        var testDescription: String { rawValue }

        /// The `reason` of `webimage_redis_rejected_entries_total` it is counted under.
        var reason: String {
            switch self {
            case .unknownKeyID: "unknown_key"
            case .oldFormat: "unsigned"
            case .replacedBytes, .forgedMAC, .changedContentType, .movedFromAnotherKey: "mismatch"
            }
        }
    }

    @Test(arguments: Poison.allCases)
    func aPoisonedEntryIsAMissAndNeverReachesTheDisk(_ poison: Poison) async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let genuine = try TrustFixture.png(width: 40, height: 30, seed: 1)
        let other = try TrustFixture.png(width: 30, height: 40, seed: 2)
        let forged = try TrustFixture.png(width: 20, height: 20, seed: 3)
        origin.route("/a.png", response: .ok(genuine))
        origin.route("/b.png", response: .ok(other))
        let a = origin.url("/a.png")
        let b = origin.url("/b.png")
        let entryKey = { (url: URL) in "webimage:trust:" + url.absoluteString }

        _ = try await RedisNode(server: redis, namespace: "trust").using { try await $0.manager.image(for: a) }
        let admin = RedisClient(configuration: redis.configuration())
        #expect(try await admin.send("EXISTS", entryKey(a)).integer == 1)

        var target = a
        var expected = (bytes: genuine, size: PixelSize(width: 40, height: 30))
        var planted = forged
        switch poison {
        case .replacedBytes:
            try await admin.send("HSET", entryKey(a), "d", forged)
        case .forgedMAC:
            try await admin.send("HSET", entryKey(a), "d", forged, "mac", String(repeating: "5a", count: 32))
        case .unknownKeyID:
            // Properly signed, with a key the nodes do not hold.
            let intruder = RedisImageCache(
                client: admin, keys: RedisEntryKeyring(signing: try TestKeys.key("intruder", byte: 9)),
                configuration: .init(namespace: "trust"))
            try await intruder.setData(forged, forKey: a.absoluteString, metadata: CacheEntryMetadata(originalURL: a, contentType: "image/png"))
        case .oldFormat:
            // The layout of earlier versions: no sha, kid or mac.
            try await admin.send("DEL", entryKey(a))
            try await admin.send(
                "HSET", entryKey(a), "d", forged, "created", "1700000000.0", "modified", "1700000000.0", "url", a.absoluteString,
                "ct", "image/png")
        case .changedContentType:
            try await admin.send("HSET", entryKey(a), "ct", "text/html")
            planted = genuine
        case .movedFromAnotherKey:
            // a's genuine, signed entry put under b's key: b must not be answered with a's bytes.
            try await admin.send("COPY", entryKey(a), entryKey(b), "REPLACE")
            target = b
            expected = (other, PixelSize(width: 30, height: 40))
            planted = genuine
        }
        let requestsBefore = origin.requestCount(target.path)

        let metrics = TestMetrics()
        try await RedisNode(server: redis, namespace: "trust", metricsFactory: metrics).using { reader in
            let image = try await reader.manager.image(for: target)
            #expect(image.image.pixelSize == expected.size)
            #expect(origin.requestCount(target.path) == requestsBefore + 1, "the origin was not asked instead")
            // The disk holds the origin's bytes, never what was planted.
            #expect(TrustFixture.anyFile(under: reader.directory, equals: expected.bytes))
            if poison != .changedContentType {
                #expect(!TrustFixture.anyFile(under: reader.directory, equals: planted), "the planted bytes reached the disk")
            }
            let onDisk = try await reader.disk.entry(forKey: target.absoluteString)
            #expect(onDisk?.data == expected.bytes)
            #expect(onDisk?.metadata.contentType == "image/png")
            #expect(try metrics.expectCounter("webimage_redis_rejected_entries_total", [("reason", poison.reason)]).totalValue >= 1)
        }
        // Redis holds a genuine, signed entry again: the reader's store replaced the planted one.
        let check = RedisImageCache(client: admin, keys: try TestKeys.keyring(), configuration: .init(namespace: "trust"))
        #expect(try await check.entry(forKey: target.absoluteString)?.data == expected.bytes)
        await admin.close()
        await origin.shutdown()
    }

    /// Every field an entry serves is covered: changing or removing any one makes it a miss;
    /// a field the format does not know is never read, so adding one changes nothing.
    @Test func everyServedFieldIsCovered() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let metrics = TestMetrics()
        let cache = RedisImageCache(
            client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "fields"), metricsFactory: metrics)
        let metadata = CacheEntryMetadata(
            originalURL: URL(string: "https://example.com/a.png"), contentType: "image/png",
            http: HTTPCacheMetadata(
                etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", cacheControl: "max-age=600",
                expires: "Wed, 21 Oct 2015 08:28:00 GMT", date: "Wed, 21 Oct 2015 07:28:00 GMT", age: 12),
            extendedData: Data([1, 2, 3]))
        let bytes = Data((0..<200).map { UInt8($0) })
        let changed = ["d", "created", "modified", "url", "ct", "etag", "lm", "cc", "exp", "date", "age", "ext", "sha", "kid", "mac"]
        for field in changed {
            try await cache.setData(bytes, forKey: "k", metadata: metadata)
            #expect(try await cache.entry(forKey: "k")?.data == bytes)
            try await client.send("HSET", "webimage:fields:k", field, "0")
            #expect(try await cache.entry(forKey: "k") == nil, "changed \(field) still served")
            if field != "d" {  // containsData reads the fields and the recorded digest, not the bytes
                #expect(try await !cache.containsData(forKey: "k"), "changed \(field) still contained")
            }
        }
        for field in ["ct", "etag", "ext", "url", "created"] {
            try await cache.setData(bytes, forKey: "k", metadata: metadata)
            try await client.send("HDEL", "webimage:fields:k", field)
            #expect(try await cache.entry(forKey: "k") == nil, "removed \(field) still served")
        }
        try await cache.setData(bytes, forKey: "k", metadata: metadata)
        try await client.send("HSET", "webimage:fields:k", "note", "anything")
        #expect(try await cache.entry(forKey: "k")?.metadata.contentType == "image/png")
        #expect(try await !cache.recordRevalidation(forKey: "missing", http: HTTPCacheMetadata(etag: "\"x\"")))
        let rejected = try ["mismatch", "unknown_key", "malformed", "unsigned"].map {
            try metrics.expectCounter("webimage_redis_rejected_entries_total", [("reason", $0)]).totalValue
        }
        #expect(rejected[0] > 0 && rejected[1] > 0 && rejected[2] > 0, "\(rejected)")
        await client.close()
    }

    /// A store keeps the first store's creation date only from an authentic entry; a revalidation
    /// of a tampered entry is refused and leaves it a miss.
    @Test func nothingUnsignedIsCarriedOver() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let clock = ManualCacheClock()
        let cache = RedisImageCache(client: client, keys: try TestKeys.keyring(), configuration: .init(namespace: "carry"), clock: clock)
        try await cache.setData(Data([1]), forKey: "k", metadata: nil)
        let created = try #require(try await cache.entry(forKey: "k")?.metadata.createdAt)
        clock.advance(by: 10)
        try await cache.setData(Data([2]), forKey: "k", metadata: nil)
        #expect(try await cache.entry(forKey: "k")?.metadata.createdAt == created)
        try await client.send("HSET", "webimage:carry:k", "created", "1.0")
        clock.advance(by: 10)
        try await cache.setData(Data([3]), forKey: "k", metadata: nil)
        let rewritten = try #require(try await cache.entry(forKey: "k"))
        #expect(rewritten.metadata.createdAt == clock.now(), "a forged creation date was carried over")
        try await client.send("HSET", "webimage:carry:k", "d", Data([9]))
        _ = try await cache.recordRevalidation(forKey: "k", http: HTTPCacheMetadata(etag: "\"e\""))
        #expect(try await cache.entry(forKey: "k") == nil, "a revalidation made tampered bytes verify")
        await client.close()
    }

    /// Rotation: entries of an old key verify while it is listed; new entries and revalidated
    /// ones are signed with the new key; once the old key is dropped its entries are misses, left
    /// in place for nodes that still list it.
    @Test func entriesOfAnOldKeyVerifyWhileItIsListed() async throws {
        let server = try await RedisTestServer()
        let client = RedisClient(configuration: server.configuration())
        let old = try TestKeys.key("2025", byte: 1)
        let new = try TestKeys.key("2026", byte: 2)
        func cache(_ keys: RedisEntryKeyring) -> RedisImageCache {
            RedisImageCache(client: client, keys: keys, configuration: .init(namespace: "rotate"))
        }
        let before = cache(RedisEntryKeyring(signing: old))
        let during = cache(RedisEntryKeyring(signing: new, verifying: [old]))
        let after = cache(RedisEntryKeyring(signing: new))
        try await before.setData(Data([1]), forKey: "a", metadata: nil)
        try await before.setData(Data([3]), forKey: "c", metadata: nil)
        #expect(try await during.entry(forKey: "a")?.data == Data([1]))
        #expect(try await during.containsData(forKey: "c"))
        try await during.setData(Data([2]), forKey: "b", metadata: nil)
        #expect(try await client.send("HGET", "webimage:rotate:b", "kid").string == "2026")
        #expect(try await before.entry(forKey: "b") == nil)  // a node not given the new key yet: a miss, not an error
        #expect(try await during.recordRevalidation(forKey: "a", http: HTTPCacheMetadata(etag: "\"v2\"")))
        #expect(try await client.send("HGET", "webimage:rotate:a", "kid").string == "2026")
        #expect(try await after.entry(forKey: "a")?.metadata.http.etag == "\"v2\"")
        #expect(try await after.entry(forKey: "b")?.data == Data([2]))
        #expect(try await after.entry(forKey: "c") == nil)
        #expect(try await during.entry(forKey: "c")?.data == Data([3]))  // not deleted by the node that refused it
        await client.close()
    }

    /// A wrong or missing password: a miss and a skipped store (nothing throws), the health says
    /// so, the gauge is 1, the error is logged once; when the server accepts the credentials again
    /// it clears.
    @Test(arguments: ["wrong", "none"])
    func refusedCredentialsAreMissesAndReported(_ credentials: String) async throws {
        let server = try await RedisTestServer(["--requirepass", "s3cret"])
        var configuration = server.configuration()
        configuration.password = credentials == "wrong" ? "nope" : nil
        let metrics = TestMetrics()
        let log = CapturedLog()
        let cache = RedisImageCache(
            client: RedisClient(configuration: configuration), keys: try TestKeys.keyring(), configuration: .init(namespace: "auth"),
            logger: log.logger(label: "test.redis", level: .debug), metricsFactory: metrics)
        guard case .authenticationFailed(let message) = await cache.checkHealth() else {
            Issue.record("health \(cache.health), not authenticationFailed")
            return
        }
        #expect(message.hasPrefix(credentials == "wrong" ? "WRONGPASS" : "NOAUTH"), "\(message)")
        #expect(try await cache.entry(forKey: "k") == nil)
        try await cache.setData(Data([1]), forKey: "k", metadata: nil)
        #expect(try await !cache.containsData(forKey: "k"))
        #expect(try metrics.expectGauge("webimage_redis_auth_failed").lastValue == 1)
        #expect(try metrics.expectCounter("webimage_redis_auth_failures_total").totalValue >= 2)
        let errors = log.messages(at: .error)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains(credentials == "wrong" ? "refused the credentials" : "requires a password") == true)
        // The server is changed to accept them: the next answer clears the failure.
        var admin = server.configuration()
        admin.password = "s3cret"
        let adminClient = RedisClient(configuration: admin)
        try await adminClient.send("CONFIG", "SET", "requirepass", credentials == "wrong" ? "nope" : "")
        #expect(await cache.checkHealth() == .available)
        #expect(try metrics.expectGauge("webimage_redis_auth_failed").lastValue == 0)
        #expect(log.messages(at: .warning).contains { $0.contains("accepts the credentials again") })
        await adminClient.close()
    }
}

/// Keys as `--redis-key` gives them, and keys derived from a service's secret (no server).
@Suite struct RedisEntryKeyTests {
    @Test(arguments: [
        "no-colon", "k1:abc", "k1:zz" + String(repeating: "00", count: 16), "k1:" + String(repeating: "ab", count: 15),
        ":" + String(repeating: "ab", count: 16), "bad id:" + String(repeating: "ab", count: 16),
        String(repeating: "x", count: 33) + ":" + String(repeating: "ab", count: 16), "clé:" + String(repeating: "ab", count: 16),
        "k1\n:" + String(repeating: "ab", count: 16), "",
    ])
    func malformedKeysAreRefused(_ text: String) {
        do {
            _ = try RedisEntryKey(parsing: text)
            Issue.record("`\(text)` was accepted")
        } catch let error as WebImageError {
            #expect(error.code == .invalidRedisEntryKey)
            #expect(!error.message.contains("abababab"), "the message repeats the secret: \(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func wellFormedAndDerivedKeys() throws {
        let parsed = try RedisEntryKey(parsing: "k-2026.a_b:" + String(repeating: "Ab", count: 16))
        #expect(parsed.id == "k-2026.a_b")
        let first = RedisEntryKey(derivingFrom: Data("secret".utf8), salt: Data("salt".utf8), label: "test")
        let again = RedisEntryKey(derivingFrom: Data("secret".utf8), salt: Data("salt".utf8), label: "test")
        let otherSalt = RedisEntryKey(derivingFrom: Data("secret".utf8), salt: Data("pepper".utf8), label: "test")
        let otherLabel = RedisEntryKey(derivingFrom: Data("secret".utf8), salt: Data("salt".utf8), label: "other")
        #expect(first.id == again.id && first.id.hasPrefix("d-") && first.id.count == 10)
        #expect(first.id != otherSalt.id && first.id != otherLabel.id)
        #expect(RedisEntryKeyring([]) == nil)
        let keyring = try #require(RedisEntryKeyring([parsed, first]))
        #expect(keyring.signing.id == parsed.id && keyring.keys.map(\.id) == [parsed.id, first.id])
    }
}
