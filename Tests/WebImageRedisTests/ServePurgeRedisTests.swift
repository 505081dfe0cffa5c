import AsyncHTTPClient
import Foundation
import Testing
import WebImageHTTPTesting
import WebImageRedis

/// `webimage serve --purge-token` (here from `WEBIMAGE_PURGE_TOKEN`) with a Redis tier: a purge on
/// one node removes what another node put in Redis, and says so per tier.
@Suite(
    .enabled(if: RedisTestServer.isAvailable && Tools.hasServeWithRedis(), "needs redis-server and `webimage serve --redis`"),
    .timeLimit(.minutes(5)))
struct ServePurgeRedisTests {
    static let token = "0123456789abcdef-purge"

    private static func delete(_ node: ServeNode, _ path: String, token: String?) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(node.port)\(path)")
        request.method = .DELETE
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(decoding: Data(body.readableBytesView), as: UTF8.self))
    }

    @Test func aPurgeRemovesTheSourceAndItsResultsFromRedis() async throws {
        let redis = try await RedisTestServer()
        let origin = try await LoopbackHTTPServer.start()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-purge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        origin.route("/p.png", response: .ok(try TrustFixture.png(width: 48, height: 32, seed: 5)))
        origin.route("/kept.png", response: .ok(try TrustFixture.png(width: 48, height: 32, seed: 6)))
        let environment = ["WEBIMAGE_REDIS_KEY": TestKeys.text(), "WEBIMAGE_PURGE_TOKEN": Self.token]

        let a = try await ServeNode.start(redis: redis.url, environment: environment, in: work.appendingPathComponent("a"))
        for size in [32, 24] { #expect(try await a.get(ServeNode.thumbnailPath(origin.url("/p.png"), size: size)).status == 200) }
        #expect(try await a.get(ServeNode.thumbnailPath(origin.url("/kept.png"), size: 32)).status == 200)
        await a.stop()  // its pending stores are finished
        let admin = RedisClient(configuration: redis.configuration())
        let before = try await admin.send("KEYS", "webimage:serve:*").elements?.compactMap(\.string) ?? []
        #expect(before.count == 5, "two sources and three results: \(before)")

        let b = try await ServeNode.start(redis: redis.url, environment: environment, in: work.appendingPathComponent("b"))
        let encoded = origin.url("/p.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let path = "/purge/unsafe/plain/\(encoded)"
        #expect(try await Self.delete(b, path, token: nil).status == 401)
        let purged = try await Self.delete(b, path, token: Self.token)
        #expect(purged.status == 200)
        #expect(purged.body.contains(#""removed":{"disk":0,"memory":0,"redis":3}"#), "\(purged.body)")
        let after = try await admin.send("KEYS", "webimage:serve:*").elements?.compactMap(\.string) ?? []
        #expect(after.count == 2 && after.allSatisfy { $0.contains("kept.png") }, "\(after)")
        #expect(try await Self.delete(b, path, token: Self.token).status == 404)
        await b.stop()
        await admin.close()
        await origin.shutdown()
    }
}
