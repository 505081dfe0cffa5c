import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting

@Suite("webimage prefetch, cache and info, run as processes", .timeLimit(.minutes(3)))
struct PrefetchCacheInfoCommandTests {
    @Test func prefetchFromArgumentsFileAndStandardInputThenCacheCommands() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        for index in 0..<6 { server.route("/p\(index).png", response: .ok(try Fixture.png(seed: UInt8(index)))) }
        server.route("/gone.png", response: .status(410, "Gone"))
        try await withTemporaryDirectory { directory in
            let list = "# warm these\n" + (2..<4).map { server.url("/p\($0).png").absoluteString }.joined(separator: "\n") + "\n\nnot-a-url\n"
            try list.write(to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
            let stdin = (4..<6).map { server.url("/p\($0).png").absoluteString }.joined(separator: "\n") + "\n"
            let run = try await CLI.run(
                ["prefetch", server.url("/p0.png").absoluteString, server.url("/p1.png").absoluteString,
                 server.url("/gone.png").absoluteString, "-", "--file", "list.txt", "--cache-dir", "cache", "--concurrency", "2"],
                in: directory, stdin: stdin)
            #expect(run.status == 1)
            #expect(run.lines.last?.hasPrefix("6 of 8 succeeded, 1 failed, 1 skipped") == true, "\(run.stdout)")
            #expect(run.stderr.contains("410"))
            #expect(run.stderr.contains("skipped 'not-a-url'"))
            for index in 0..<6 { #expect(server.requestCount("/p\(index).png") == 1) }

            // Everything prefetched is a disk hit for the next process.
            let fetch = try await CLI.run(
                ["fetch"] + (0..<6).map { server.url("/p\($0).png").absoluteString } + ["--cache-dir", "cache", "--json"],
                in: directory)
            #expect(fetch.status == 0)
            let sources = try fetch.jsonLines().compactMap { $0["source"] as? String }
            #expect(sources == Array(repeating: "disk", count: 6))

            let stats = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            let object = try #require(try stats.jsonLines().first)
            #expect(object["entries"] as? Int == 6)
            let oldest = try #require(object["oldest"] as? [String: Any])
            #expect((oldest["url"] as? String)?.contains("/p") == true)
            #expect(object["newest"] != nil)
            let text = try await CLI.run(["cache", "stats", "--cache-dir", "cache"], in: directory)
            #expect(text.stdout.contains("entries:    6"))

            let path = try await CLI.run(["cache", "path", "--cache-dir", "cache"], in: directory)
            #expect(path.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("/cache"))

            // A budget below the total: clean trims least recently used entries.
            let clean = try await CLI.run(["cache", "clean", "--cache-dir", "cache", "--max-disk-size", "1"], in: directory)
            #expect(clean.status == 0, "\(clean.stderr)")
            #expect(clean.stdout.contains("0 entries"))

            _ = try await CLI.run(["prefetch", server.url("/p0.png").absoluteString, "--cache-dir", "cache"], in: directory)
            let clear = try await CLI.run(["cache", "clear", "--cache-dir", "cache"], in: directory)
            #expect(clear.stdout.hasPrefix("removed 1 entries"))
            let empty = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            #expect(try empty.jsonLines().first?["entries"] as? Int == 0)
        }
    }

    @Test func cleanExpiresByMaxAge() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/old.png", response: .ok(try Fixture.png()))
        try await withTemporaryDirectory { directory in
            _ = try await CLI.run(["prefetch", server.url("/old.png").absoluteString, "--cache-dir", "c"], in: directory)
            let kept = try await CLI.run(["cache", "clean", "--cache-dir", "c", "--max-age", "1d"], in: directory)
            #expect(kept.stdout.contains("1 entries"), "\(kept.stdout)")
            try await Task.sleep(for: .milliseconds(1100))
            let expired = try await CLI.run(["cache", "clean", "--cache-dir", "c", "--max-age", "1s"], in: directory)
            #expect(expired.stdout.contains("0 entries"), "\(expired.stdout)")
        }
    }

    @Test func infoOnAFileAndOnAURL() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let gif = try Fixture.gif(frames: 3)
        server.route("/a.gif", response: .ok(gif, contentType: "image/gif"))
        server.route("/404.gif", response: .status(404))
        try await withTemporaryDirectory { directory in
            try gif.write(to: directory.appendingPathComponent("a.gif"))
            let file = try await CLI.run(["info", "a.gif", "--json"], in: directory)
            let url = try await CLI.run(["info", server.url("/a.gif").absoluteString, "--json", "--cache-dir", "c"], in: directory)
            for run in [file, url] {
                #expect(run.status == 0, "\(run.stderr)")
                let object = try #require(try run.jsonLines().first)
                #expect(object["format"] as? String == "gif")
                #expect(object["frameCount"] as? Int == 3)
                #expect(object["fileSize"] as? Int == gif.count)
            }
            let text = try await CLI.run(["info", server.url("/a.gif").absoluteString, "--cache-dir", "c"], in: directory)
            #expect(text.stdout.contains("frames:       3"))
            #expect(server.requestCount("/a.gif") == 1)
            let missing = try await CLI.run(["info", server.url("/404.gif").absoluteString, "--cache-dir", "c"], in: directory)
            #expect(missing.status == 1 && missing.stderr.contains("404"))
        }
    }
}
