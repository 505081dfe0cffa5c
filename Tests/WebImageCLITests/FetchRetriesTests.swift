import Foundation
import Testing
import WebImageHTTPTesting

@Suite("webimage fetch and prefetch --retries, run as processes", .timeLimit(.minutes(3)))
struct FetchRetriesTests {
    @Test func fetchRetriesATransientFailureOnlyWhenAsked() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let png = try Fixture.png(seed: 3)
        server.routeSequence("/plain.png", [.status(503), .ok(png)])
        server.routeSequence("/retried.png", [.status(503), .ok(png)])
        server.route("/gone.png", response: .status(404))
        try await withTemporaryDirectory { directory in
            // Without --retries (the default 0) a 503 fails at once.
            let plain = try await CLI.run(["fetch", server.url("/plain.png").absoluteString, "-o", "out", "--no-cache"], in: directory)
            #expect(plain.status == 1, "\(plain.stderr)")
            #expect(server.requestCount("/plain.png") == 1)

            let retried = try await CLI.run(
                ["fetch", server.url("/retried.png").absoluteString, server.url("/gone.png").absoluteString,
                 "-o", "out", "--no-cache", "--retries", "2"],
                in: directory)
            #expect(retried.status == 1, "\(retried.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/retried.png")) == png)
            #expect(server.requestCount("/retried.png") == 2)
            // A 404 is not retried, whatever --retries says.
            #expect(server.requestCount("/gone.png") == 1)
        }
    }

    @Test func prefetchRetriesToo() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.routeSequence("/p.png", [.status(502), .status(504), .ok(try Fixture.png(seed: 4))])
        try await withTemporaryDirectory { directory in
            let run = try await CLI.run(
                ["prefetch", server.url("/p.png").absoluteString, "--cache-dir", "cache", "--retries", "2"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(server.requestCount("/p.png") == 3)
        }
    }

    @Test func retriesOutOfRangeAreAUsageError() async throws {
        try await withTemporaryDirectory { directory in
            for value in ["-1", "11"] {
                let run = try await CLI.run(["fetch", "https://example.invalid/a.png", "--retries", value], in: directory)
                #expect(run.status == 2, "\(value): \(run.stderr)")
            }
        }
    }
}
