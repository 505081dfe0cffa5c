import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
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
            ])
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
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("unavailable"), "\(result.stderr)")
        #expect(origin.requestCount("/alone.png") == 1)
        await origin.shutdown()
    }

    @Test func aBadRedisURLIsAUsageError() async throws {
        let result = try await Tools.run(try Tools.webimage(), ["fetch", "http://127.0.0.1:1/x.png", "--redis", "http://nope"])
        #expect(result.status == 64 || result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("--redis"))
    }
}

