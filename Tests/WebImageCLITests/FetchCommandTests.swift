import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting

@Suite("webimage fetch, run as a process against the loopback server", .timeLimit(.minutes(3)))
struct FetchCommandTests {
    @Test func fetchesWritesOriginalBytesAndHitsTheDiskCacheInASecondProcess() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let (cat, dog) = (try Fixture.png(seed: 1), try Fixture.jpeg())
        server.route("/img/cat.png", response: .ok(cat))
        server.route("/img/dog.jpg", response: .ok(dog, contentType: "image/jpeg"))
        try await withTemporaryDirectory { directory in
            let urls = [server.url("/img/cat.png").absoluteString, server.url("/img/dog.jpg").absoluteString]
            let first = try await CLI.run(["fetch"] + urls + ["-o", "out", "--cache-dir", "cache"], in: directory)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/cat.png")) == cat)
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/dog.jpg")) == dog)
            #expect(first.lines.count == 3)
            #expect(first.lines.contains { $0.contains("network") && $0.contains("png 64×48") && $0.hasSuffix("-> out/cat.png") })
            #expect(first.lines.contains { $0.contains("jpeg 320×200") && $0.contains("\(dog.count)") || $0.contains("jpeg 320×200") })
            #expect(first.lines.last?.hasPrefix("2 of 2 succeeded") == true)
            // Not a terminal: plain lines, no escape codes anywhere.
            #expect(!first.stdout.contains("\u{1B}") && !first.stderr.contains("\u{1B}"))

            let second = try await CLI.run(["fetch", urls[0], "-o", "out", "--cache-dir", "cache", "--json"], in: directory)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(server.requestCount("/img/cat.png") == 1)
            let events = try second.jsonLines()
            let finished = try #require(events.first { $0["event"] as? String == "finished" })
            #expect(finished["source"] as? String == "disk")
            #expect(finished["file"] as? String == "out/cat-1.png")
            #expect(finished["width"] as? Int == 64)
            #expect(events.last?["event"] as? String == "summary")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/cat-1.png")) == cat)
        }
    }

    @Test func failuresExitOneWithTheirTypedErrors() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/ok.png", response: .ok(try Fixture.png()))
        server.route("/missing.png", response: .status(404, "Not Found"))
        server.route("/corrupt.png", response: .ok(Data("\u{89}PNG\r\n\u{1A}\nthis is not a PNG".utf8)))
        server.route("/page.html", response: .ok(Data("<html><body>hello</body></html>".utf8), contentType: "text/html"))
        server.route("/slow.png", response: .hanging)
        try await withTemporaryDirectory { directory in
            let paths = ["/ok.png", "/missing.png", "/corrupt.png", "/page.html", "/slow.png"]
            let run = try await CLI.run(
                ["fetch"] + paths.map { server.url($0).absoluteString } + ["--cache-dir", "cache", "--timeout", "15", "--json"],
                in: directory)
            #expect(run.status == 1)
            let events = try run.jsonLines()
            func error(_ path: String) -> [String: Any]? {
                events.first { $0["event"] as? String == "failed" && ($0["url"] as? String)?.hasSuffix(path) == true }?["error"]
                    as? [String: Any]
            }
            #expect(error("/missing.png")?["code"] as? String == "invalidDownloadStatusCode")
            #expect((error("/missing.png")?["message"] as? String)?.contains("404") == true)
            #expect(error("/corrupt.png")?["code"] as? String == "badImageData")
            #expect(error("/page.html")?["code"] as? String == "badImageData")
            #expect((error("/page.html")?["message"] as? String)?.contains("text/html") == true)
            #expect(error("/slow.png")?["code"] as? String == "timedOut")
            #expect(events.contains { $0["event"] as? String == "finished" && ($0["url"] as? String)?.hasSuffix("/ok.png") == true })
            let summary = try #require(events.last)
            #expect(summary["succeeded"] as? Int == 1 && summary["failed"] as? Int == 4)
            // Each failure is also on standard error, one line each.
            #expect(run.stderr.split(separator: "\n").filter { $0.hasPrefix("webimage: error: ") }.count == 4)
            #expect(run.stderr.contains("404"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("ok.png").path))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.png").path))
        }
    }

    @Test func resizesThumbnailsAndReencodes() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/photo.jpg", response: .ok(try Fixture.jpeg(width: 400, height: 200), contentType: "image/jpeg"))
        server.route("/anim.gif", response: .ok(try Fixture.gif(frames: 4), contentType: "image/gif"))
        try await withTemporaryDirectory { directory in
            let photo = server.url("/photo.jpg").absoluteString
            let coders = ImageCodersManager.standard()
            let resized = try await CLI.run(
                ["fetch", photo, "--resize", "100x100", "--mode", "cover", "--format", "webp", "-o", "a", "--cache-dir", "c"],
                in: directory)
            #expect(resized.status == 0, "\(resized.stderr)")
            let webp = try coders.decode(Data(contentsOf: directory.appendingPathComponent("a/photo.webp")))
            #expect(webp.format == .webp && webp.pixelSize == PixelSize(width: 100, height: 100))

            let thumbnail = try await CLI.run(["fetch", photo, "--thumbnail", "50", "-o", "b", "--cache-dir", "c"], in: directory)
            #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
            let small = try coders.decode(Data(contentsOf: directory.appendingPathComponent("b/photo.jpg")))
            #expect(small.format == .jpeg && small.pixelSize == PixelSize(width: 50, height: 25))

            let animated = try await CLI.run(
                ["fetch", server.url("/anim.gif").absoluteString, "--format", "webp", "-o", "d", "--no-cache", "--cache-dir", "c"],
                in: directory)
            #expect(animated.status == 0, "\(animated.stderr)")
            let frames = try coders.decode(Data(contentsOf: directory.appendingPathComponent("d/anim.webp")))
            #expect(frames.format == .webp && frames.animation?.frameCount == 4)
            // Only the first run downloaded the photo; --no-cache downloads again every time.
            #expect(server.requestCount("/photo.jpg") == 1)
        }
    }

    @Test func cacheOnlyFailsForAnUncachedURLAndUsageErrorsExitTwo() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/x.png", response: .ok(try Fixture.png()))
        try await withTemporaryDirectory { directory in
            let url = server.url("/x.png").absoluteString
            let cacheOnly = try await CLI.run(["fetch", url, "--cache-only", "--cache-dir", "c"], in: directory)
            #expect(cacheOnly.status == 1)
            #expect(server.requestCount("/x.png") == 0)
            let usage = try await CLI.run(["fetch", url, "--concurrency", "0"], in: directory)
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("--concurrency"))
            let unknown = try await CLI.run(["fetch", "--no-such-flag", url], in: directory)
            #expect(unknown.status == 2)
            let invalid = try await CLI.run(["fetch", "not a url", "--cache-dir", "c"], in: directory)
            #expect(invalid.status == 1)
            #expect(invalid.stderr.contains("invalidURL"))
        }
    }

    @Test func ctrlCCancelsCleanlyAndLeavesTheCacheConsistent() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let png = try Fixture.png(seed: 9)
        server.route("/done.png", response: .ok(png))
        server.route("/stuck.png", response: .hangingAfterHead(contentLength: 100_000))
        try await withTemporaryDirectory { directory in
            let child = try CLI.start(
                ["fetch", server.url("/done.png").absoluteString, server.url("/stuck.png").absoluteString,
                 "--cache-dir", "cache", "--concurrency", "1"],
                in: directory)
            await server.waitForRequests("/stuck.png")
            child.interrupt()
            let run = try await child.finish(limit: .seconds(20))
            #expect(run.status == 130)
            #expect(run.stdout.contains("(cancelled)"))
            // The downloads Ctrl-C cancelled are counted, not listed as errors.
            #expect(!run.stderr.contains("cancelled:"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("stuck.png").path))
            let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("cache").path)
            #expect(!cacheFiles.contains { $0.hasPrefix(".tmp") || $0.hasPrefix("tmp") })
            let stats = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            #expect(stats.status == 0)
            let object = try #require(try stats.jsonLines().first)
            #expect(object["entries"] as? Int == 1)
            let again = try await CLI.run(["fetch", server.url("/done.png").absoluteString, "--cache-dir", "cache", "--json"], in: directory)
            #expect(try again.jsonLines().first { $0["event"] as? String == "finished" }?["source"] as? String == "disk")
        }
    }
}
