import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// A data provider that counts its calls and can hold them behind a gate.
final class CountingProvider: ImageDataProviding {
    let cacheKey: String
    let bytes: Data
    let gate: TestGate?
    private let calls = Mutex(0)

    init(cacheKey: String, bytes: Data, gate: TestGate? = nil) {
        self.cacheKey = cacheKey
        self.bytes = bytes
        self.gate = gate
    }

    var callCount: Int { calls.withLock { $0 } }

    func data() async throws -> Data {
        calls.withLock { $0 += 1 }
        try await gate?.pass()
        return bytes
    }
}

/// A provider whose source is gone.
struct FailingProvider: ImageDataProviding {
    struct Gone: Error {}
    let cacheKey: String
    func data() async throws -> Data { throw Gone() }
}

@Suite("ImageManager: sources that are not URLs", .timeLimit(.minutes(3)))
struct DataProviderTests {
    @Test func theProviderIsCalledOnceThenTheCachesServe() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            let gate = TestGate()
            let provider = CountingProvider(cacheKey: "album-7/cover", bytes: png, gate: gate)
            let manager = try harness.makeManager()
            let request = ImageRequest(provider: provider, options: [.waitStoreCache])
            let tasks = [manager.task(for: request), manager.task(for: request)]
            await gate.waitForArrivals(1)
            gate.open()
            for task in tasks {
                let response = try await task.response
                #expect(response.cacheType == .none)
                #expect(response.image.pixelSize == PixelSize(width: 64, height: 48))
            }
            #expect(provider.callCount == 1)
            #expect(try await manager.image(for: request).cacheType == .memory)
            #expect(try await harness.makeManager().image(for: request).cacheType == .disk)
            #expect(provider.callCount == 1)
            #expect(manager.cacheKey(for: request) == "album-7/cover")
            let cache = manager.configuration.imageCache
            #expect(try await diskEntry(cache, "album-7/cover")?.data == png)
            #expect(harness.server.log.requests.isEmpty)
        }
    }

    @Test func aProvidedImageIsThumbnailedTransformedAndCachedUnderItsOwnKey() async throws {
        try await withHarness { harness in
            let provider = CountingProvider(cacheKey: "upload-3", bytes: try Fixture.png())
            let steps = StepCounter()
            var request = ImageRequest(provider: provider, options: [.waitStoreCache])
            request.decoding.thumbnailPixelSize = PixelSize(width: 32, height: 32)
            request.transformer = steps.tailStep("flip")
            let manager = try harness.makeManager()
            let first = try await manager.image(for: request)
            #expect(first.image.pixelSize == PixelSize(width: 32, height: 24))
            let key = try #require(manager.cacheKey(for: request))
            #expect(key.hasPrefix("upload-3") && key.hasSuffix("-flip"))
            #expect(try await harness.makeManager().image(for: request).cacheType == .disk)
            #expect(provider.callCount == 1 && steps["flip"] == 1)
            // A different key is a different source: the provider is asked again.
            let other = CountingProvider(cacheKey: "upload-4", bytes: try Fixture.png(seed: 3))
            #expect(try await manager.image(for: ImageRequest(provider: other)).cacheType == .none)
            #expect(other.callCount == 1)
        }
    }

    @Test func inMemoryDataWithAnIDLoadsAndBadBytesFailClearly() async throws {
        try await withHarness { harness in
            let manager = try harness.makeManager()
            let stream = manager.events()
            let response = try await manager.image(for: ImageRequest(id: "picked-1", data: try Fixture.png()))
            #expect(response.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(response.url.scheme == "webimage-provider")
            // The provider's call is the download stage; nothing reached a loader.
            let events = await ManagerStageEventsTests.events(stream, through: .decode)
            #expect(events.map(\.stage) == [.cacheQuery, .download, .decode])
            #expect(events.allSatisfy { $0.key == "picked-1" && $0.url == response.url })
            #expect(harness.server.log.requests.isEmpty)
            let garbage = ImageRequest(id: "picked-2", data: Data("not an image".utf8))
            #expect(await failureCode { try await manager.image(for: garbage) } == .badImageData)
            #expect(await failureCode { try await manager.image(for: ImageRequest(id: "", data: Data())) } == .invalidCacheKey)
        }
    }

    @Test func aFailingProviderFailsTypedAndBlocksNothing() async throws {
        try await withHarness { harness in
            let manager = try harness.makeManager()
            let request = ImageRequest(provider: FailingProvider(cacheKey: "gone-1"))
            for _ in 0..<2 {
                do {
                    _ = try await manager.image(for: request)
                    Issue.record("a failing provider gave an image")
                } catch let error as WebImageError {
                    #expect(error.code == .dataProviderFailed)
                    #expect(error.underlying is FailingProvider.Gone)
                }
            }
            #expect(manager.failedURLs.count == 0)
        }
    }

    @Test func aRawDataRequestAsksTheDiskFirst() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.route("/raw.png", response: .ok(png))
            let manager = try harness.makeManager()
            let url = harness.server.url("/raw.png")
            let downloaded = try await manager.data(for: ImageRequest(url: url))
            #expect(downloaded.data == png && downloaded.cacheType == .none)
            let stored = try await harness.makeManager().data(for: ImageRequest(url: url))
            #expect(stored.data == png && stored.cacheType == .disk)
            #expect(harness.server.requestCount("/raw.png") == 1)
            #expect(harness.coders.decodeCount == 0)
            #expect(manager.configuration.imageCache.memoryImage(forKey: url.absoluteString) == nil)

            let provider = CountingProvider(cacheKey: "raw-provided", bytes: png)
            #expect(try await manager.data(for: ImageRequest(provider: provider)).cacheType == .none)
            let again = try await manager.data(for: ImageRequest(provider: provider))
            #expect(again.data == png && again.cacheType == .disk)
            #expect(provider.callCount == 1)
            // An image request then decodes the stored bytes: the provider is not asked again.
            #expect(try await manager.image(for: ImageRequest(provider: provider)).cacheType == .disk)
            #expect(provider.callCount == 1)
            harness.server.route("/page.html", response: .ok(Data("<html></html>".utf8), contentType: "text/html"))
            let page = ImageRequest(url: harness.server.url("/page.html"))
            #expect(await failureCode { try await manager.data(for: page) } == .badImageData)
        }
    }

    @Test func coalescingOffCallsTheProviderOncePerRequest() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            let provider = CountingProvider(cacheKey: "solo-1", bytes: try Fixture.png(), gate: gate)
            let manager = try harness.makeManager { $0.isCoalescingEnabled = false }
            let request = ImageRequest(provider: provider)
            let tasks = [manager.task(for: request), manager.task(for: request)]
            await gate.waitForArrivals(2)
            gate.open()
            for task in tasks { _ = try await task.response }
            #expect(provider.callCount == 2)
        }
    }
}
