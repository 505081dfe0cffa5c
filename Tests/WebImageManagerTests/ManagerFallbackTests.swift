import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

/// Alternative sources: fallback URLs tried in order, under the failed-URL rule, the result
/// cached under the request's own URL, each attempt an event.
@Suite("ImageManager: fallback URLs", .timeLimit(.minutes(3)))
struct ManagerFallbackTests {
    static func downloads(_ stream: AsyncStream<ImageManager.Event>, count: Int) async -> [ImageManager.Event] {
        var events: [ImageManager.Event] = []
        for await event in stream where event.stage == .download {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    @Test func aFailedPrimaryIsAnsweredByTheFallbackAndCachedUnderThePrimarysKey() async throws {
        try await withHarness { harness in
            let png = try Fixture.png(seed: 5)
            harness.server.route("/primary.png", response: .status(404))
            harness.server.route("/second.png", response: .status(503))
            harness.server.route("/third.png", response: .ok(png))
            let manager = try harness.makeManager()
            let events = manager.events()
            let primary = harness.server.url("/primary.png")
            var request = ImageRequest(url: primary, options: [.waitStoreCache])
            request.fallbackURLs = [harness.server.url("/second.png"), harness.server.url("/third.png")]
            let response = try await manager.image(for: request)
            #expect(response.url == primary)
            #expect(response.sourceURL == harness.server.url("/third.png"))
            #expect(response.cacheType == .none)
            // Every attempt is a download event naming the URL tried.
            let attempts = await Self.downloads(events, count: 3)
            #expect(attempts.map(\.url) == [primary, harness.server.url("/second.png"), harness.server.url("/third.png")])
            #expect(attempts.map(\.succeeded) == [false, false, true])
            #expect(attempts.allSatisfy { $0.key == primary.absoluteString })
            // The key is the primary's: on disk, and a memory hit for a request without fallbacks.
            #expect(manager.cacheKey(for: request) == primary.absoluteString)
            #expect(try await diskEntry(try harness.makeCache(), primary.absoluteString)?.data == png)
            #expect(manager.cachedImage(for: ImageRequest(url: primary)) != nil)
            // Each URL's failure counts for that URL: the 404 blocks the primary, the 503 nothing.
            #expect(manager.failedURLs.isBlocked(primary))
            #expect(!manager.failedURLs.isBlocked(harness.server.url("/second.png")))
        }
    }

    @Test func aBlockedPrimaryGoesStraightToTheFallback() async throws {
        try await withHarness { harness in
            harness.server.route("/dead.png", response: .status(410))
            harness.server.route("/alive.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let dead = harness.server.url("/dead.png")
            #expect(await failureCode { try await manager.image(for: dead) } == .invalidDownloadStatusCode)
            #expect(await failureCode { try await manager.image(for: dead) } == .blockedURL)
            var request = ImageRequest(url: dead)
            request.fallbackURLs = [harness.server.url("/alive.png")]
            let response = try await manager.image(for: request)
            #expect(response.sourceURL == harness.server.url("/alive.png"))
            #expect(harness.server.requestCount("/dead.png") == 1)
            #expect(harness.server.requestCount("/alive.png") == 1)
        }
    }

    @Test func whenEverySourceFailsTheLastFailureIsThrown() async throws {
        try await withHarness { harness in
            harness.server.route("/a.png", response: .status(503))
            harness.server.route("/b.png", response: .ok(Data("<html>login</html>".utf8), contentType: "text/html"))
            let manager = try harness.makeManager()
            var request = ImageRequest(url: harness.server.url("/a.png"))
            request.fallbackURLs = [harness.server.url("/b.png")]
            do {
                _ = try await manager.image(for: request)
                Issue.record("expected a failure")
            } catch let error as WebImageError {
                #expect(error.code == .badImageData)
                #expect(error.message.contains("text/html"), "\(error.message)")
            }
            #expect(harness.server.requestCount("/a.png") == 1)
            #expect(harness.server.requestCount("/b.png") == 1)
        }
    }

    @Test func requestsWithAndWithoutFallbacksDoNotShareAFailure() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/p.png", response: TestResponse(status: 404, beforeHead: [.wait(gate)]))
            harness.server.route("/f.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let url = harness.server.url("/p.png")
            var withFallback = ImageRequest(url: url)
            withFallback.fallbackURLs = [harness.server.url("/f.png")]
            let plain = manager.task(for: ImageRequest(url: url))
            let rescued = manager.task(for: withFallback)
            #expect(manager.runningTaskCounts.finals == 2)
            await gate.waitForArrivals(1)
            gate.open()
            #expect(await failureCode { try await plain.response } == .invalidDownloadStatusCode)
            let response = try await rescued.response
            #expect(response.sourceURL == harness.server.url("/f.png"))
        }
    }
}
