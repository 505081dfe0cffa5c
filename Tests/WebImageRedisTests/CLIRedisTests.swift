import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageRedis
import WebImageTesting

/// `webimage fetch --redis URL`: two runs with separate disk caches share one Redis; a dead Redis
/// changes nothing but a warning.
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"), .timeLimit(.minutes(2)))
struct CLIRedisTests {
    private func png() throws -> Data {
        try PNGCoder().encode(Image(pixels: ImageFixtures.gradient(width: 20, height: 10), format: .png), as: .png, options: .init())
    }

    @Test func twoRunsShareTheRedisTier() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        origin.route("/shared.png", response: .ok(try png()))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-redis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let tool = try Tools.webimage()
        for run in 0..<2 {
            let result = try await Tools.run(tool, [
                "fetch", origin.url("/shared.png").absoluteString, "-o", work.appendingPathComponent("out\(run)").path,
                "--cache-dir", work.appendingPathComponent("cache\(run)").path, "--redis", redis.url, "--json",
            ], environment: ["WEBIMAGE_REDIS_KEY": TestKeys.text()])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"finished\""), "\(result.stdout)")
        }
        #expect(origin.requestCount("/shared.png") == 1)
        await origin.shutdown()
    }

    @Test func aDeadRedisOnlyWarns() async throws {
        let origin = try await LoopbackHTTPServer.start()
        origin.route("/alone.png", response: .ok(try png()))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-redis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let port = try FreePort.next()
        let result = try await Tools.run(try Tools.webimage(), [
            "fetch", origin.url("/alone.png").absoluteString, "-o", work.path, "--cache-dir", work.appendingPathComponent("c").path,
            "--redis", "redis://127.0.0.1:\(port)",
        ], environment: ["WEBIMAGE_REDIS_KEY": TestKeys.text()])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("unavailable"), "\(result.stderr)")
        #expect(origin.requestCount("/alone.png") == 1)
        await origin.shutdown()
    }

    /// Issue 24, finding 7, in `fetch`: entries planted in Redis (replaced bytes, a forged MAC,
    /// an unknown key id, the old unsigned format) are misses: the second run fetches from the
    /// origin, writes the origin's bytes and keeps nothing planted in its cache.
    @Test func plantedEntriesAreFetchedFromTheOrigin() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-redis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let kinds = ["replaced-bytes", "forged-mac", "unknown-key-id", "old-format"]
        let planted = try TrustFixture.png(width: 20, height: 20, seed: 99)
        var genuine: [String: Data] = [:]
        for (index, kind) in kinds.enumerated() {
            genuine[kind] = try TrustFixture.png(width: 48, height: 32, seed: index)
            origin.route("/\(kind).png", response: .ok(genuine[kind]!))
        }
        let urls = kinds.map { origin.url("/\($0).png") }
        let tool = try Tools.webimage()
        func fetch(_ run: Int) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Tools.run(tool, ["fetch"] + urls.map(\.absoluteString) + [
                "-o", work.appendingPathComponent("out\(run)").path, "--cache-dir", work.appendingPathComponent("cache\(run)").path,
                "--redis", redis.url,
            ], environment: ["WEBIMAGE_REDIS_KEY": TestKeys.text()])
        }
        let first = try await fetch(0)
        #expect(first.status == 0, "\(first.stderr)")
        let admin = RedisClient(configuration: redis.configuration())
        for (kind, url) in zip(kinds, urls) {
            let key = "webimage:default:" + url.absoluteString
            #expect(try await admin.send("EXISTS", key).integer == 1, "\(kind) not in Redis")
            switch kind {
            case "replaced-bytes": try await admin.send("HSET", key, "d", planted)
            case "forged-mac": try await admin.send("HSET", key, "d", planted, "mac", String(repeating: "c3", count: 32))
            case "unknown-key-id": try await admin.send("HSET", key, "d", planted, "kid", "intruder", "mac", String(repeating: "7e", count: 32))
            default:
                try await admin.send("DEL", key)
                try await admin.send("HSET", key, "d", planted, "ct", "image/png", "created", "1700000000.0", "modified", "1700000000.0")
            }
        }
        let second = try await fetch(1)
        #expect(second.status == 0, "\(second.stderr)")
        for kind in kinds {
            #expect(origin.requestCount("/\(kind).png") == 2, "\(kind): the origin was not asked again")
            #expect(TrustFixture.anyFile(under: work.appendingPathComponent("out1"), equals: genuine[kind]!), "\(kind): not the origin's bytes")
        }
        #expect(!TrustFixture.anyFile(under: work.appendingPathComponent("out1"), equals: planted), "the planted bytes were written")
        #expect(!TrustFixture.anyFile(under: work.appendingPathComponent("cache1"), equals: planted), "the planted bytes reached the disk")
        #expect(second.stderr.contains("ignoring the Redis entry"), "\(second.stderr)")
        await admin.close()
        await origin.shutdown()
    }

    @Test func aRedisTierNeedsAKey() async throws {
        let result = try await Tools.run(
            try Tools.webimage(), ["fetch", "http://127.0.0.1:1/x.png", "--redis", "redis://127.0.0.1:1"],
            environment: ["WEBIMAGE_REDIS_KEY": ""])
        #expect(result.status == 64 || result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--redis-key"), "\(result.stderr)")
    }

    @Test func aBadRedisURLIsAUsageError() async throws {
        let result = try await Tools.run(try Tools.webimage(), ["fetch", "http://127.0.0.1:1/x.png", "--redis", "http://nope"])
        #expect(result.status == 64 || result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--redis"))
    }
}

