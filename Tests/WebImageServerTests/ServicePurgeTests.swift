import Foundation
import NIOHTTP1
import Testing
import WebImageHTTPTesting
import WebImageKit

@testable import WebImageServer

/// `DELETE /purge/{signature}/plain/{source}` over a live socket, with a disk cache.
@Suite("Service: purge", .timeLimit(.minutes(3)))
struct ServicePurgeTests {
    static let token = "purge-token-for-tests-0123456789"

    /// The signed purge path of the origin's `path`.
    private static func purgePath(_ harness: ServiceHarness, _ path: String) -> String {
        "/purge" + ServiceHarness.signed("", source: harness.origin.url(path).absoluteString)
    }

    @Test("refused without the right bearer token; removes the original and its results from memory and disk, with counts")
    func purge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-purge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServiceHarness.with(configure: {
            $0.purgeToken = Self.token
            $0.cacheDirectory = directory
        }) { harness in
            harness.origin.route("/p.png", response: .ok(Fixtures.png, contentType: "image/png"))
            harness.origin.route("/other.png", response: .ok(Fixtures.png, contentType: "image/png"))
            #expect(try await harness.image("rs:fit:30:20", "/p.png", ext: "png").status == 200)
            #expect(try await harness.image("rs:fit:60:40", "/p.png", ext: "webp").status == 200)
            #expect(try await harness.image("rs:fit:30:20", "/other.png").status == 200)
            await harness.server.service.writes.drain()
            let path = Self.purgePath(harness, "/p.png")

            #expect(try await harness.request(path, method: .DELETE).status == 401)
            let wrong = try await harness.request(path, method: .DELETE, headers: [("Authorization", "Bearer not-the-token-at-all")])
            #expect(wrong.status == 401 && wrong.header("WWW-Authenticate") == "Bearer")
            let basic = try await harness.request(path, method: .DELETE, headers: [("Authorization", "Basic \(Self.token)")])
            #expect(basic.status == 401)
            let unsigned = "/purge" + ServiceHarness.unsignedPath("", source: harness.origin.url("/p.png").absoluteString)
            #expect(try await harness.request("/purge/bad" + unsigned.dropFirst(6), method: .DELETE, headers: Self.bearer).status == 403)

            let purged = try await harness.request(path, method: .DELETE, headers: Self.bearer)
            #expect(purged.status == 200, "\(purged.text)")
            let report = try #require(try JSONSerialization.jsonObject(with: purged.body) as? [String: Any])
            let removed = try #require(report["removed"] as? [String: Int])
            #expect(removed == ["memory": 3, "disk": 3, "redis": 0], "two results and the original in each")
            #expect(report["total"] as? Int == 6)
            #expect(report["source"] as? String == harness.origin.url("/p.png").absoluteString)
            #expect(harness.server.service.memory.count == 1, "the other source's result stays")

            let again = try await harness.request(path, method: .DELETE, headers: Self.bearer)
            #expect(again.status == 404)
            #expect(again.text.contains("\"total\":0"))

            #expect(try await harness.image("rs:fit:30:20", "/p.png", ext: "png").status == 200)
            #expect(harness.origin.requestCount("/p.png") == 2, "a purged source is fetched again")
            #expect(harness.origin.requestCount("/other.png") == 1)
        }
    }

    @Test("no token, no purge route: DELETE is 405")
    func offWithoutAToken() async throws {
        try await ServiceHarness.with { harness in
            let path = Self.purgePath(harness, "/p.png")
            let answer = try await harness.request(path, method: .DELETE, headers: Self.bearer)
            #expect(answer.status == 405)
        }
    }

    private static let bearer = [("Authorization", "Bearer \(token)")]
}
