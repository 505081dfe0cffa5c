import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

/// `webimage info --thumbhash`, and the service's `/info` answering the same JSON.
@Suite("webimage info --thumbhash and /info", .serialized)
struct InfoThumbHashTests {
    @Test("/info answers webimage info --json's object plus the etag; --thumbhash and th:1 agree")
    func sameJSON() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            let png = try Fixture.png(width: 90, height: 60)
            origin.route("/a.png", response: .ok(png, contentType: "image/png", headers: [("ETag", "\"abc\"")]))
            try png.write(to: directory.appendingPathComponent("a.png"))
            let local = try await CLI.run(["info", "a.png", "--json", "--thumbhash"], in: directory)
            #expect(local.status == 0, "\(local.stderr)")
            var cli = try #require(try local.jsonLines().first)
            #expect(cli["thumbHash"] is String)

            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log"], in: directory)
            let source = origin.url("/a.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = try await served.get("/info/unsafe/th:1/plain/\(source)")
            #expect(try await served.terminate() == 0)
            #expect(answer.status == 200)
            var service = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(service.removeValue(forKey: "etag") as? String == "\"abc\"")
            #expect(service.removeValue(forKey: "file") as? String == origin.url("/a.png").absoluteString)
            #expect(cli.removeValue(forKey: "file") as? String == "a.png")
            func canonical(_ object: [String: Any]) throws -> String {
                String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
            #expect(try canonical(service) == canonical(cli))

            let plain = try await CLI.run(["info", "a.png"], in: directory)
            #expect(!plain.stdout.contains("thumbhash"))
            let withHash = try await CLI.run(["info", "a.png", "--thumbhash"], in: directory)
            #expect(withHash.stdout.contains("thumbhash:    \(cli["thumbHash"] as? String ?? "-")"))
        }
    }
}
