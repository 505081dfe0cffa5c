import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// HTTP freshness of disk entries: each step is a new manager (a new memory tier, as after a
/// relaunch) over one disk directory, with the disk cache and the manager on one manual clock.
@Suite("ImageManager: HTTP freshness (max-age, revalidation)", .timeLimit(.minutes(3)))
struct ManagerFreshnessTests {
    /// An origin serving `old` as ETag "v1", answering a request revalidating "v1" with
    /// `revalidated` (a 304 when nil), each with `cacheControl`.
    private static func routeVersions(
        _ server: LoopbackHTTPServer, _ path: String, old: Data, revalidated: Data?, cacheControl: String = "max-age=60"
    ) {
        server.route(path) { request in
            guard request.header("If-None-Match") == "\"v1\"" else {
                return .ok(old, headers: [("ETag", "\"v1\""), ("Cache-Control", cacheControl)])
            }
            guard let revalidated else { return TestResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", cacheControl)]) }
            return .ok(revalidated, headers: [("ETag", "\"v2\""), ("Cache-Control", cacheControl)])
        }
    }

    @Test func aFreshEntryIsServedWithoutARequestAndAStaleOneIsRevalidated() async throws {
        try await withHarness { harness in
            let clock = ManualCacheClock(start: Date())
            let png = try Fixture.png()
            Self.routeVersions(harness.server, "/a.png", old: png, revalidated: nil)
            let url = harness.server.url("/a.png")
            _ = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            #expect(harness.server.requestCount("/a.png") == 1)

            clock.advance(by: 59)
            let fresh = try await harness.makeManager(clock: clock).image(for: url)
            #expect(fresh.cacheType == .disk)
            #expect(harness.server.requestCount("/a.png") == 1, "a fresh entry asks nothing")

            clock.advance(by: 2)
            let revalidated = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            #expect(revalidated.cacheType == .disk, "a 304 keeps the stored image")
            #expect(revalidated.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(harness.server.requestCount("/a.png") == 2)
            #expect(harness.server.log.requests.last?.header("If-None-Match") == "\"v1\"")
            let entry = try #require(try await diskEntry(harness.makeCache(clock: clock), url.absoluteString)?.metadata)
            #expect(abs(entry.modifiedAt.timeIntervalSince(clock.now())) < 0.01, "the 304 restarts the entry's freshness")

            clock.advance(by: 59)
            _ = try await harness.makeManager(clock: clock).image(for: url)
            #expect(harness.server.requestCount("/a.png") == 2, "fresh again for max-age after the 304")
        }
    }

    @Test func aNewETagReplacesTheStaleEntry() async throws {
        try await withHarness { harness in
            let clock = ManualCacheClock(start: Date())
            let old = try Fixture.png(seed: 1)
            let new = try Fixture.png(width: 40, height: 30, seed: 2)
            Self.routeVersions(harness.server, "/b.png", old: old, revalidated: new)
            let url = harness.server.url("/b.png")
            _ = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: url, options: [.waitStoreCache]))

            clock.advance(by: 61)
            let replaced = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            #expect(replaced.cacheType == .none)
            #expect(replaced.image.pixelSize == PixelSize(width: 40, height: 30))
            let entry = try #require(try await diskEntry(harness.makeCache(clock: clock), url.absoluteString))
            #expect(entry.data == new)
            #expect(entry.metadata?.http.etag == "\"v2\"")
        }
    }

    @Test func aDerivedResultSurvivesA304AndIsRemadeOnANewETag() async throws {
        try await withHarness { harness in
            let clock = ManualCacheClock(start: Date())
            let old = try Fixture.png(seed: 1)  // 64×48: 32×24 fitted in 32×32
            let new = try Fixture.png(width: 40, height: 40, seed: 2)  // 32×32
            let answersNew = Mutex(false)
            harness.server.route("/c.png") { request in
                guard request.header("If-None-Match") == "\"v1\"" else {
                    return .ok(old, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
                }
                if answersNew.withLock({ $0 }) { return .ok(new, headers: [("ETag", "\"v2\""), ("Cache-Control", "max-age=60")]) }
                return TestResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
            }
            var request = ImageRequest(url: harness.server.url("/c.png"), options: [.waitStoreCache])
            request.transformer = ResizeTransformer(size: PixelSize(width: 32, height: 32), mode: .aspectFit)
            let made = try await harness.makeManager(clock: clock).image(for: request)
            #expect(made.image.pixelSize == PixelSize(width: 32, height: 24))

            clock.advance(by: 30)
            #expect(try await harness.makeManager(clock: clock).image(for: request).cacheType == .disk)
            #expect(harness.server.requestCount("/c.png") == 1)

            clock.advance(by: 31)
            let decodes = harness.coders.decodeCount
            let kept = try await harness.makeManager(clock: clock).image(for: request)
            #expect(kept.cacheType == .disk, "a 304 keeps the derived result")
            #expect(kept.image.pixelSize == PixelSize(width: 32, height: 24))
            #expect(harness.server.requestCount("/c.png") == 2)
            // The derived entry and the original are each decoded once; nothing is transformed again.
            #expect(harness.coders.decodeCount - decodes == 2)
            clock.advance(by: 59)
            _ = try await harness.makeManager(clock: clock).image(for: request)
            #expect(harness.server.requestCount("/c.png") == 2, "the derived result is fresh again")

            clock.advance(by: 2)
            answersNew.withLock { $0 = true }
            let remade = try await harness.makeManager(clock: clock).image(for: request)
            #expect(remade.cacheType == .none)
            #expect(remade.image.pixelSize == PixelSize(width: 32, height: 32), "a new ETag remakes the derived result")
            #expect(harness.server.requestCount("/c.png") == 3)
        }
    }

    @Test func aStaleEntryAnswersAnOriginErrorUnlessItMustRevalidate() async throws {
        try await withHarness { harness in
            let clock = ManualCacheClock(start: Date())
            let png = try Fixture.png()
            harness.server.routeSequence("/lenient.png", [.ok(png, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]), .status(503, "down")])
            harness.server.routeSequence(
                "/strict.png", [.ok(png, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60, must-revalidate")]), .status(503, "down")])
            let lenient = harness.server.url("/lenient.png")
            let strict = harness.server.url("/strict.png")
            let first = try harness.makeManager(clock: clock)
            _ = try await first.image(for: ImageRequest(url: lenient, options: [.waitStoreCache]))
            _ = try await first.image(for: ImageRequest(url: strict, options: [.waitStoreCache]))

            clock.advance(by: 61)
            let stale = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: lenient, options: [.retryFailed]))
            #expect(stale.cacheType == .disk, "stale-if-error")
            #expect(harness.server.requestCount("/lenient.png") >= 2)
            let code = await failureCode { try await harness.makeManager(clock: clock).image(for: ImageRequest(url: strict, options: [.retryFailed])) }
            #expect(code == .invalidDownloadStatusCode, "must-revalidate: the failure, not the stale copy")
        }
    }

    @Test func noCacheRevalidatesEveryUse() async throws {
        try await withHarness { harness in
            let clock = ManualCacheClock(start: Date())
            let png = try Fixture.png()
            Self.routeVersions(harness.server, "/n.png", old: png, revalidated: nil, cacheControl: "no-cache")
            let url = harness.server.url("/n.png")
            _ = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            let again = try await harness.makeManager(clock: clock).image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            #expect(again.cacheType == .disk)
            #expect(harness.server.requestCount("/n.png") == 2)
            #expect(harness.server.log.requests.last?.header("If-None-Match") == "\"v1\"")
        }
    }
}
