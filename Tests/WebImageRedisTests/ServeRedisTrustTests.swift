import Foundation
import Testing
import WebImageHTTPTesting
import WebImageRedis

/// `webimage serve --redis` (issue 24, finding 7) as an operator runs it: a source planted in
/// Redis is not served, not kept on disk, and fetched from the origin instead; keys rotate; a
/// wrong or missing Redis password is logged at start, told by `/ready` and a metric.
@Suite(
    .enabled(if: RedisTestServer.isAvailable && Tools.hasServeWithRedis(), "needs redis-server and `webimage serve --redis`"),
    .serialized, .timeLimit(.minutes(5)))
struct ServeRedisTrustTests {
    private static func workDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-trust-\(UUID().uuidString)")
    }

    /// The Redis keys of the originals serve stored, by the source path each belongs to.
    private static func sourceKeys(_ admin: RedisClient, paths: [String]) async throws -> [String: String] {
        let keys = try await admin.send("KEYS", "webimage:serve:source:*").elements?.compactMap(\.string) ?? []
        var found: [String: String] = [:]
        for path in paths {
            let encoded = path.replacingOccurrences(of: "/", with: "%2F")
            found[path] = keys.first { $0.hasSuffix(path) || $0.hasSuffix(encoded) }
        }
        return found
    }

    @Test func plantedSourcesAreFetchedFromTheOrigin() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let work = Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let kinds = ["replaced-bytes", "forged-mac", "unknown-key-id", "old-format"]
        let planted = try TrustFixture.png(width: 20, height: 20, seed: 99)
        var genuine: [String: Data] = [:]
        for (index, kind) in kinds.enumerated() {
            genuine[kind] = try TrustFixture.png(width: 48, height: 32, seed: index)
            origin.route("/src/\(kind).png", response: .ok(genuine[kind]!))
        }
        let environment = ["WEBIMAGE_REDIS_KEY": TestKeys.text()]

        let first = try await ServeNode.start(redis: redis.url, environment: environment, in: work.appendingPathComponent("a"))
        for kind in kinds {
            #expect(try await first.get(ServeNode.thumbnailPath(origin.url("/src/\(kind).png"), size: 32)).status == 200)
        }
        await first.stop()  // its pending stores are finished

        let admin = RedisClient(configuration: redis.configuration())
        let keys = try await Self.sourceKeys(admin, paths: kinds.map { "/src/\($0).png" })
        for kind in kinds {
            guard let key = keys["/src/\(kind).png"] else {
                Issue.record("no Redis entry for \(kind)")
                continue
            }
            switch kind {
            case "replaced-bytes":
                try await admin.send("HSET", key, "d", planted)
            case "forged-mac":
                try await admin.send("HSET", key, "d", planted, "mac", String(repeating: "c3", count: 32))
            case "unknown-key-id":
                try await admin.send("HSET", key, "d", planted, "kid", "intruder", "mac", String(repeating: "7e", count: 32))
            default:
                try await admin.send("DEL", key)
                try await admin.send("HSET", key, "d", planted, "ct", "image/png", "created", "1700000000.0", "modified", "1700000000.0")
            }
        }

        let second = try await ServeNode.start(redis: redis.url, environment: environment, in: work.appendingPathComponent("b"))
        for kind in kinds {
            let answer = try await second.get(ServeNode.thumbnailPath(origin.url("/src/\(kind).png"), size: 24))
            #expect(answer.status == 200)
            let size = TrustFixture.pngSize(answer.body)
            #expect(size?.width == 24 && size?.height == 16, "\(kind): \(String(describing: size)) made from the planted bytes")
            #expect(origin.requestCount("/src/\(kind).png") == 2, "\(kind): the origin was not asked again")
        }
        let mismatches = try await second.metric(#"webimage_redis_rejected_entries_total{reason="mismatch"}"#) ?? 0
        let unknown = try await second.metric(#"webimage_redis_rejected_entries_total{reason="unknown_key"}"#) ?? 0
        let unsigned = try await second.metric(#"webimage_redis_rejected_entries_total{reason="unsigned"}"#) ?? 0
        #expect(mismatches >= 2 && unknown >= 1 && unsigned >= 1, "\(mismatches) \(unknown) \(unsigned)")
        await second.stop()
        #expect(!TrustFixture.anyFile(under: second.cacheDirectory, equals: planted), "the planted bytes reached the disk")
        let log = second.log
        #expect(log.contains("ignoring the Redis entry webimage:serve:source:"), "\(log)")
        await admin.close()
        await origin.shutdown()
    }

    /// Node A signs with the old key; B lists the new key first and the old one after it and
    /// trusts A's source; C holds only the new key: A's source is a miss for it, B's result is not.
    @Test func rotatedKeysVerifyWhileListed() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let work = Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        origin.route("/r.png", response: .ok(try TrustFixture.png(width: 48, height: 32, seed: 7)))
        let source = origin.url("/r.png")
        let old = TestKeys.text("k-old", byte: 3)
        let new = TestKeys.text("k-new", byte: 4)

        let a = try await ServeNode.start(redis: redis.url, environment: ["WEBIMAGE_REDIS_KEY": old], in: work.appendingPathComponent("a"))
        #expect(try await a.get(ServeNode.thumbnailPath(source, size: 32)).status == 200)
        await a.stop()
        #expect(origin.requestCount("/r.png") == 1)

        let b = try await ServeNode.start(
            redis: redis.url, environment: ["WEBIMAGE_REDIS_KEY": "\(new),\(old)"], in: work.appendingPathComponent("b"))
        #expect(try await b.get(ServeNode.thumbnailPath(source, size: 24)).status == 200)
        await b.stop()
        #expect(origin.requestCount("/r.png") == 1, "the old key's source was not trusted while listed")

        let c = try await ServeNode.start(redis: redis.url, environment: ["WEBIMAGE_REDIS_KEY": new], in: work.appendingPathComponent("c"))
        #expect(try await c.get(ServeNode.thumbnailPath(source, size: 24)).status == 200)
        #expect(origin.requestCount("/r.png") == 1, "B's result, signed with the new key, was not trusted")
        #expect(try await c.get(ServeNode.thumbnailPath(source, size: 20)).status == 200)
        #expect(origin.requestCount("/r.png") == 2, "an entry of a key no longer listed was trusted")
        await c.stop()
        await origin.shutdown()
    }

    /// Against a redis-server with `requirepass`: a wrong password and none are logged once at
    /// start, told by `/ready` (still 200: the service serves without the tier) and
    /// `webimage_redis_auth_failed`; images are still served.
    @Test(arguments: ["wrong", "none"])
    func refusedRedisCredentialsAreReported(_ credentials: String) async throws {
        let redis = try await RedisTestServer(["--requirepass", "s3cret"])
        let origin = try await LoopbackHTTPServer.start()
        let work = Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        origin.route("/p.png", response: .ok(try TrustFixture.png(width: 48, height: 32)))
        let url = credentials == "wrong" ? "redis://:wrong@127.0.0.1:\(redis.port)" : redis.url
        let node = try await ServeNode.start(redis: url, environment: ["WEBIMAGE_REDIS_KEY": TestKeys.text()], in: work)
        let reply = credentials == "wrong" ? "WRONGPASS" : "NOAUTH"
        #expect(node.log.contains(reply), "not logged at start: \(node.log)")
        let ready = try await node.get("/ready")
        let details = String(decoding: ready.body, as: UTF8.self)
        #expect(ready.status == 200)
        #expect(details.contains("redis: authentication failed (\(reply)"), "\(details)")
        #expect(try await node.metric("webimage_redis_auth_failed") == 1)
        for size in [32, 24] {
            #expect(try await node.get(ServeNode.thumbnailPath(origin.url("/p.png"), size: size)).status == 200)
        }
        #expect(try await node.metric("webimage_redis_auth_failures_total") ?? 0 >= 1)
        await node.stop()
        let lines = node.log.split(separator: "\n").filter { $0.contains("serving without the shared tier (reads are misses") }
        #expect(lines.count == 1, "logged \(lines.count) times: \(node.log)")
        #expect(!node.log.contains("wrong@"), "the password was logged")
        await origin.shutdown()
    }

    /// Signed entries need a key: `--redis` with neither `--redis-key` nor `--key`/`--salt` is a
    /// usage error, and so is a malformed key (whose secret the message does not repeat).
    @Test func serveWithRedisNeedsAKey() async throws {
        let tool = try Tools.webimage()
        // A port already taken: a serve that accepted the settings exits at once instead of serving.
        let taken = try await LoopbackHTTPServer.start()
        let port = String(taken.baseURL.port ?? 1)
        let missing = try await Tools.run(
            tool, ["serve", "--port", port, "--allow-unsigned", "--redis", "redis://127.0.0.1:1"], environment: ["WEBIMAGE_REDIS_KEY": ""])
        #expect(missing.status == 2 || missing.status == 64, "\(missing.status) \(missing.stderr)")
        #expect(missing.stderr.contains("--redis-key"), "\(missing.stderr)")
        let short = try await Tools.run(
            tool, ["serve", "--port", port, "--allow-unsigned", "--redis", "redis://127.0.0.1:1", "--redis-key", "k1:abcdef0123"])
        #expect(short.status == 2 || short.status == 64, "\(short.status) \(short.stderr)")
        #expect(short.stderr.contains("--redis-key") && !short.stderr.contains("abcdef0123"), "\(short.stderr)")
        await taken.shutdown()
    }
}
