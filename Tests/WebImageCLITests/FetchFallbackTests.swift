import Foundation
import Testing
import WebImageHTTPTesting

@Suite("webimage fetch --fallback, run as a process", .timeLimit(.minutes(3)))
struct FetchFallbackTests {
    @Test func aFailingURLIsAnsweredByItsFallbacksInOrder() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let png = try Fixture.png(seed: 6)
        server.route("/cdn/cat.png", response: .status(404))
        server.route("/mirror/cat.png", response: .status(500))
        server.route("/origin/cat.png", response: .ok(png))
        try await withTemporaryDirectory { directory in
            let run = try await CLI.run(
                ["fetch", server.url("/cdn/cat.png").absoluteString,
                 "--fallback", server.url("/mirror/cat.png").absoluteString,
                 "--fallback", server.url("/origin/cat.png").absoluteString,
                 "-o", "out", "--cache-dir", "cache", "--json"],
                in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            // Named after the URL asked for, with the bytes of the one that answered.
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/cat.png")) == png)
            let finished = try #require(try run.jsonLines().first { $0["event"] as? String == "finished" })
            #expect(finished["url"] as? String == server.url("/cdn/cat.png").absoluteString)
            #expect(finished["sourceURL"] as? String == server.url("/origin/cat.png").absoluteString)
            #expect(server.requestCount("/mirror/cat.png") == 1)

            // Cached under the URL asked for: the next run needs no fallback and no network.
            let again = try await CLI.run(["fetch", server.url("/cdn/cat.png").absoluteString, "-o", "out2", "--cache-dir", "cache"], in: directory)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.lines.first?.contains(" disk ") == true, "\(again.lines)")
            #expect(server.requestCount("/origin/cat.png") == 1)
        }
    }

    @Test func aFallbackThatIsNotAURLIsAUsageError() async throws {
        try await withTemporaryDirectory { directory in
            let run = try await CLI.run(["fetch", "https://example.invalid/a.png", "--fallback", "nope"], in: directory)
            #expect(run.status == 2, "\(run.stderr)")
        }
    }
}
