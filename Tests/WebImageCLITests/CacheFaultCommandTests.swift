import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting

/// The tool with a cache that cannot be used or was damaged, and failed URLs across runs.
@Suite("webimage and the cache under faults", .timeLimit(.minutes(3)))
struct CacheFaultCommandTests {
    /// A cache directory that cannot be created, even by root: its parent is a regular file.
    private func unusableCacheDirectory(in directory: URL) throws -> String {
        try Data("not a directory".utf8).write(to: directory.appendingPathComponent("file"))
        return "file/cache"
    }

    @Test func fetchWithAnUnusableCacheDownloadsWithoutCachingAndWarnsOnce() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let (a, b) = (try Fixture.png(seed: 1), try Fixture.png(seed: 2))
        server.route("/a.png", response: .ok(a))
        server.route("/b.png", response: .ok(b))
        try await withTemporaryDirectory { directory in
            let cache = try unusableCacheDirectory(in: directory)
            let urls = [server.url("/a.png").absoluteString, server.url("/b.png").absoluteString]
            let run = try await CLI.run(["fetch"] + urls + ["-o", "out", "--cache-dir", cache], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/a.png")) == a)
            #expect(try Data(contentsOf: directory.appendingPathComponent("out/b.png")) == b)
            let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("webimage: warning: cannot use the cache") }
            #expect(warnings.count == 1, "\(run.stderr)")
            #expect(!run.stderr.contains("webimage: error"))
        }
    }

    @Test func fetchWithoutTheCacheNeverOpensIt() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let png = try Fixture.png()
        server.route("/n.png", response: .ok(png))
        try await withTemporaryDirectory { directory in
            let cache = try unusableCacheDirectory(in: directory)
            let run = try await CLI.run(
                ["fetch", server.url("/n.png").absoluteString, "--no-cache", "--cache-dir", cache], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("n.png")) == png)
            let clean = try await CLI.run(["fetch", server.url("/n.png").absoluteString, "--no-cache"], in: directory)
            #expect(clean.status == 0)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("xdg-cache").path))
        }
    }

    @Test func anUnreadableIndexIsMovedAsideWithAWarningAndEveryCommandWorks() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/i.png", response: .ok(try Fixture.png()))
        try await withTemporaryDirectory { directory in
            let url = server.url("/i.png").absoluteString
            let first = try await CLI.run(["fetch", url, "-o", "out", "--cache-dir", "cache"], in: directory)
            #expect(first.status == 0, "\(first.stderr)")
            let index = directory.appendingPathComponent("cache/index.sqlite")
            try Data(repeating: 0x42, count: 8192).write(to: index)

            let clear = try await CLI.run(["cache", "clear", "--cache-dir", "cache"], in: directory)
            #expect(clear.status == 0, "\(clear.stderr)")
            #expect(clear.stderr.contains("webimage: warning: the cache index could not be read; moved it to"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("cache/index.sqlite.broken").path))

            let fetch = try await CLI.run(["fetch", url, "-o", "out", "--cache-dir", "cache", "--json"], in: directory)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            #expect(!fetch.stderr.contains("warning"))
            #expect(try fetch.jsonLines().first { $0["event"] as? String == "finished" }?["source"] as? String == "network")
            let stats = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            #expect(try stats.jsonLines().first?["entries"] as? Int == 1)
        }
    }

    @Test func aPermanentFailureIsBlockedInTheNextRunUntilRetriedOrCleared() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/gone.png", response: .status(404, "Not Found"))
        server.route("/busy.png", response: .status(503, "Busy"))
        try await withTemporaryDirectory { directory in
            let (gone, busy) = (server.url("/gone.png").absoluteString, server.url("/busy.png").absoluteString)
            func code(_ run: CLIRun, _ url: String) throws -> String? {
                let failed = try run.jsonLines().first { $0["event"] as? String == "failed" && $0["url"] as? String == url }
                return (failed?["error"] as? [String: Any])?["code"] as? String
            }
            let arguments = ["--cache-dir", "cache", "--json"]
            let first = try await CLI.run(["fetch", gone, busy] + arguments, in: directory)
            #expect(first.status == 1)
            #expect(try code(first, gone) == "invalidDownloadStatusCode")
            #expect(try code(first, busy) == "invalidDownloadStatusCode")

            let second = try await CLI.run(["fetch", gone, busy] + arguments, in: directory)
            #expect(try code(second, gone) == "blockedURL")
            #expect(try code(second, busy) == "invalidDownloadStatusCode")  // 5xx never blocks
            #expect(server.requestCount("/gone.png") == 1)
            #expect(server.requestCount("/busy.png") == 2)
            let stats = try await CLI.run(["cache", "stats", "--cache-dir", "cache", "--json"], in: directory)
            #expect(try stats.jsonLines().first?["blockedURLs"] as? Int == 1)

            let retried = try await CLI.run(["fetch", gone, "--retry-failed"] + arguments, in: directory)
            #expect(try code(retried, gone) == "invalidDownloadStatusCode")
            #expect(server.requestCount("/gone.png") == 2)

            let clear = try await CLI.run(["cache", "clear", "--cache-dir", "cache"], in: directory)
            #expect(clear.stdout.contains("1 blocked URLs"), "\(clear.stdout)")
            let afterClear = try await CLI.run(["fetch", gone] + arguments, in: directory)
            #expect(try code(afterClear, gone) == "invalidDownloadStatusCode")
            #expect(server.requestCount("/gone.png") == 3)
        }
    }

    @Test func theCacheDirectoryHoldsLittleMoreThanItsBudgetAfterARun() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        for index in 0..<15 { server.route("/s\(index).png", response: .ok(try Fixture.png(width: 8, height: 8, seed: UInt8(index)))) }
        try await withTemporaryDirectory { directory in
            let urls = (0..<15).map { server.url("/s\($0).png").absoluteString }
            let run = try await CLI.run(
                ["fetch"] + urls + ["-o", "out", "--cache-dir", "cache", "--max-disk-size", "20000"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let cache = directory.appendingPathComponent("cache")
            let wal = cache.appendingPathComponent("index.sqlite-wal")
            let walBytes = ((try? FileManager.default.attributesOfItem(atPath: wal.path))?[.size] as? Int) ?? 0
            #expect(walBytes == 0)
            let total = try directoryBytes(cache)
            #expect(total < 20_000 + 64 * 1024, "the cache directory holds \(total) bytes")
        }
    }

    private func directoryBytes(_ directory: URL) throws -> Int {
        var total = 0
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey])
        while let url = enumerator?.nextObject() as? URL {
            total += try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        }
        return total
    }
}
