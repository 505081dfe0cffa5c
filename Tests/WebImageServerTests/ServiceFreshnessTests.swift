import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

/// Originals revalidated once their origin says they are stale, over a live socket, on a manual
/// clock shared by the service and its disk cache.
@Suite("Service: HTTP freshness of originals", .timeLimit(.minutes(3)))
struct ServiceFreshnessTests {
    /// An origin serving version 1 (ETag "v1", `cacheControl`); a request revalidating "v1" gets a
    /// 304, or version 2 once `changed` says so.
    private static func routeVersions(
        _ origin: LoopbackHTTPServer, _ path: String, changed: @escaping @Sendable () -> Bool, cacheControl: String = "max-age=60"
    ) throws {
        let first = Fixtures.png
        let second = try Fixtures.coders.encode(
            Image(pixels: ImageFixtures.gradient(width: 200, height: 300), format: .png), as: .png, options: ImageEncodingOptions())
        origin.route(path) { request in
            let headers = [("Cache-Control", cacheControl)]
            guard request.header("If-None-Match") == "\"v1\"" else {
                return .ok(first, contentType: "image/png", headers: headers + [("ETag", "\"v1\"")])
            }
            if changed() { return .ok(second, contentType: "image/png", headers: headers + [("ETag", "\"v2\"")]) }
            return TestResponse(status: 304, headers: headers + [("ETag", "\"v1\"")])
        }
    }

    private static func cacheDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-freshness-\(UUID().uuidString)")
    }

    @Test("fresh: no origin request; stale: a conditional one; a 304 keeps every result, a new ETag drops them")
    func revalidation() async throws {
        let clock = ManualCacheClock(start: Date())
        let changed = Mutex(false)
        let directory = Self.cacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServiceHarness.with(configure: {
            $0.clock = clock
            $0.cacheDirectory = directory
        }) { harness in
            try Self.routeVersions(harness.origin, "/s.png", changed: { changed.withLock { $0 } })
            let small = try await harness.image("rs:fit:30:20", "/s.png", ext: "png")
            let large = try await harness.image("rs:fit:60:40", "/s.png", ext: "png")
            #expect(small.status == 200 && large.status == 200)
            #expect(harness.origin.requestCount("/s.png") == 1)

            clock.advance(by: 59)
            #expect(try await harness.image("rs:fit:30:20", "/s.png", ext: "png").header("ETag") == small.header("ETag"))
            #expect(harness.origin.requestCount("/s.png") == 1, "fresh: answered without the origin")

            clock.advance(by: 2)
            let revalidated = try await harness.image("rs:fit:30:20", "/s.png", ext: "png")
            #expect(revalidated.status == 200 && revalidated.body == small.body)
            #expect(revalidated.header("ETag") == small.header("ETag"))
            #expect(harness.origin.requestCount("/s.png") == 2)
            #expect(harness.origin.log.requests.last?.header("If-None-Match") == "\"v1\"")
            let kept = try await harness.image("rs:fit:60:40", "/s.png", ext: "png")
            #expect(kept.header("ETag") == large.header("ETag"), "a 304 keeps every result")
            #expect(harness.origin.requestCount("/s.png") == 2, "one revalidation for the source")

            await harness.server.service.writes.drain()
            changed.withLock { $0 = true }
            clock.advance(by: 61)
            let remade = try await harness.image("rs:fit:30:20", "/s.png", ext: "png")
            #expect(remade.status == 200 && remade.header("ETag") != small.header("ETag"))
            let size = try Fixtures.header(remade.body).pixelSize
            #expect(size.height == 20 && size.width < 20, "made of the new, portrait source")
            #expect(harness.origin.requestCount("/s.png") == 3)
            // The other result went with the old source, from memory and from the disk.
            #expect(harness.server.service.memory.count == 1)
            await harness.server.service.writes.drain()
            let disk = try #require(harness.server.tiers.disk)
            #expect(try await disk.count() == 2, "the new source and the one result made of it")
        }
    }

    @Test("stale-if-error: a stale original answers an origin failure, unless it must be revalidated")
    func staleIfError() async throws {
        let clock = ManualCacheClock(start: Date())
        try await ServiceHarness.with(configure: {
            $0.clock = clock
            $0.originRetries = 0
        }) { harness in
            let headers = [("ETag", "\"v1\"")]
            harness.origin.routeSequence(
                "/lenient.png",
                [.ok(Fixtures.png, contentType: "image/png", headers: headers + [("Cache-Control", "max-age=60")]), .status(503, "down")])
            harness.origin.routeSequence(
                "/strict.png",
                [.ok(Fixtures.png, contentType: "image/png", headers: headers + [("Cache-Control", "max-age=60, must-revalidate")]),
                 .status(503, "down")])
            #expect(try await harness.image("rs:fit:30:20", "/lenient.png").status == 200)
            #expect(try await harness.image("rs:fit:30:20", "/strict.png").status == 200)

            clock.advance(by: 61)
            let lenient = try await harness.image("rs:fit:30:20", "/lenient.png")
            #expect(lenient.status == 200, "the stale result answers")
            #expect(harness.origin.requestCount("/lenient.png") == 2)
            let strict = try await harness.image("rs:fit:30:20", "/strict.png")
            #expect(strict.status >= 500, "must-revalidate: the failure, not the stale result")
            #expect(harness.origin.requestCount("/strict.png") == 2)
        }
    }
}
