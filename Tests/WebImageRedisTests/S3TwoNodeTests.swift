import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageRedis
import WebImageTesting

/// `s3://` sources under the Redis download lock: two nodes sharing one redis-server and one
/// loopback store (path-style) fetch an object once between them, as for http(s) sources.
@Suite(.enabled(if: RedisTestServer.isAvailable, "redis-server is not installed"), .timeLimit(.minutes(5)))
struct S3TwoNodeTests {
    @Test func oneStoreFetchOfAnObjectAcrossNodes() async throws {
        let redis = try await RedisTestServer()
        let store = try await LoopbackHTTPServer.start()
        let bytes = try RedisFixture.png(seed: 28)
        let gate = TestGate()
        store.route(
            "/photos/one.png",
            response: TestResponse(status: 200, headers: [("Content-Type", "image/png")], body: [.wait(gate)] + TestResponse.steps(bytes)))
        let s3 = S3Configuration(
            endpoint: store.baseURL, credentials: S3Credentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret"))
        // Generous timeouts: this test is about the lock, not about outages.
        let patient = RedisCoordinatedLoader.Configuration(waitTimeout: .seconds(60), pollInterval: .milliseconds(10))
        let nodes = [
            try RedisNode(server: redis, commandTimeout: .seconds(10), coordination: patient, s3: s3),
            try RedisNode(server: redis, commandTimeout: .seconds(10), coordination: patient, s3: s3),
        ]
        let url = URL(string: "s3://photos/one.png")!
        try await withThrowingTaskGroup(of: PixelSize.self) { group in
            for index in 0..<10 {
                group.addTask { try await nodes[index % 2].manager.image(for: url).image.pixelSize }
            }
            await gate.waitForArrivals(1)
            try await Task.sleep(for: .milliseconds(100))  // let the other node reach its wait
            gate.open()
            for try await size in group { #expect(size == PixelSize(width: 40, height: 30)) }
        }
        #expect(store.requestCount("/photos/one.png") == 1)
        #expect(store.log.requests.first?.header("Authorization")?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDTEST/") == true)
        for node in nodes { await node.shutdown() }
        await store.shutdown()
    }
}
