import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// Every stage is reported once, through one timing helper, whether it succeeds or fails.
@Suite("ImageManager: stage events", .timeLimit(.minutes(3)))
struct ManagerStageEventsTests {
    struct FailingTransformer: ImageTransforming {
        var key: String { "Failing" }
        func transform(_ image: Image) throws -> Image { throw WebImageError(.transformFailed, "refused") }
    }

    /// The events up to and including the first `stage` event.
    static func events(
        _ stream: AsyncStream<ImageManager.Event>, through stage: ImageManager.Event.Stage
    ) async -> [ImageManager.Event] {
        var events: [ImageManager.Event] = []
        for await event in stream {
            events.append(event)
            if event.stage == stage { break }
        }
        return events
    }

    @Test func aFailingCacheIsReportedAsFailedQueryAndStore() async throws {
        try await withHarness { harness in
            harness.server.route("/f.png", response: .ok(try Fixture.png()))
            let cache = TestImageCache()
            cache.failure = WebImageError(.cacheIO, "disk unplugged")
            let manager = try harness.makeManager { $0.imageCache = ImageCache(memory: [cache], data: [cache]) }
            let stream = manager.events()
            let url = harness.server.url("/f.png")
            // The cache's errors count as a miss and a lost store: the image is still delivered.
            let response = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            #expect(response.cacheType == .none)
            let events = await Self.events(stream, through: .store)
            #expect(events.map(\.stage) == [.cacheQuery, .download, .decode, .store])
            #expect(events.map(\.succeeded) == [false, true, true, false])
            #expect(events.allSatisfy { $0.url == url && $0.key == url.absoluteString && !$0.hit })
        }
    }

    @Test func aFailingTransformIsReportedOnceAndRethrown() async throws {
        try await withHarness { harness in
            harness.server.route("/t.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let stream = manager.events()
            var request = ImageRequest(url: harness.server.url("/t.png"), options: [.waitStoreCache])
            request.transformer = FailingTransformer()
            #expect(await failureCode { try await manager.image(for: request) } == .transformFailed)
            let events = await Self.events(stream, through: .transform)
            #expect(events.map(\.stage) == [.cacheQuery, .cacheQuery, .download, .decode, .store, .transform])
            #expect(events.map(\.succeeded) == [true, true, true, true, true, false])
            #expect(events.last?.key == manager.cacheKey(for: request))
        }
    }

    @Test func aFailingDecodeIsReportedOnceAndRethrown() async throws {
        try await withHarness { harness in
            harness.server.route("/bad.png", response: .ok(Data("not an image".utf8)))
            let manager = try harness.makeManager()
            let stream = manager.events()
            #expect(await failureCode { try await manager.image(for: harness.server.url("/bad.png")) } == .badImageData)
            let events = await Self.events(stream, through: .decode)
            #expect(events.map(\.stage) == [.cacheQuery, .download, .decode])
            #expect(events.map(\.succeeded) == [true, true, false])
        }
    }

    @Test func aDiskOnlyPrefetchReportsAFailingCacheLookup() async throws {
        try await withHarness { harness in
            harness.server.route("/p.png", response: .ok(try Fixture.png()))
            let cache = TestImageCache()
            cache.failure = WebImageError(.cacheIO, "disk unplugged")
            let manager = try harness.makeManager { $0.imageCache = ImageCache(memory: [cache], data: [cache]) }
            let stream = manager.events()
            let url = harness.server.url("/p.png")
            let prefetcher = ImagePrefetcher(manager: manager, destination: .diskOnly)
            let summary = await prefetcher.prefetch([url]).completion
            #expect(summary.failed == 1)
            // A request that touches no cache ends the observation with its download.
            var sentinel = ImageRequest(url: url, options: [.fromLoaderOnly])
            sentinel.caching.storeType = .none
            _ = try await manager.image(for: sentinel)
            let events = await Self.events(stream, through: .download)
            #expect(events.map(\.stage) == [.cacheQuery, .download])
            #expect(events.first?.succeeded == false)
            #expect(events.first?.key == url.absoluteString)
        }
    }
}
