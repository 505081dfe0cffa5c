import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// A user-info key the tests' options processor reads.
enum ForceRetry: ImageRequest.UserInfoKey {
    static let defaultValue = false
}

@Suite("ImageManager: request options and context", .timeLimit(.minutes(3)))
struct ManagerOptionsTests {
    @Test func cacheKeyFilterMakesTwoURLsOneEntry() async throws {
        try await withHarness { harness in
            harness.server.route("/k.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let filter: @Sendable (URL) -> String? = { url in
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                components?.query = nil
                return components?.string
            }
            var first = ImageRequest(url: URL(string: harness.server.url("/k.png").absoluteString + "?token=1"))
            first.cacheKeyFilter = filter
            var second = ImageRequest(url: URL(string: harness.server.url("/k.png").absoluteString + "?token=2"))
            second.cacheKeyFilter = filter
            #expect(try await manager.image(for: first).cacheType == .none)
            #expect(try await manager.image(for: second).cacheType == .memory)
            #expect(manager.cacheKey(for: second) == harness.server.url("/k.png").absoluteString)
            #expect(harness.server.requestCount("/k.png") == 1)
        }
    }

    @Test func cacheSerializerProducesTheStoredBytesOfATransformedImage() async throws {
        try await withHarness { harness in
            harness.server.route("/ser.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            var request = ImageRequest(url: harness.server.url("/ser.png"), options: [.waitStoreCache])
            request.transformer = CropTransformer(rect: PixelRect(x: 0, y: 0, width: 8, height: 8))
            request.cacheSerializer = { image, original, _ in
                try? ImageCodersManager.standard().encode(image, as: .webp, options: ImageEncodingOptions(lossless: true))
            }
            _ = try await manager.image(for: request)
            let key = try #require(manager.cacheKey(for: request))
            let stored = try #require(try await diskEntry(manager.configuration.imageCache, key)?.data)
            #expect(ImageFormat.detect(in: stored) == .webp)
        }
    }

    @Test func fromLoaderOnlyDownloadsDespiteTheCache() async throws {
        try await withHarness { harness in
            harness.server.route("/lo.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let url = harness.server.url("/lo.png")
            _ = try await manager.image(for: url)
            let again = try await manager.image(for: ImageRequest(url: url, options: [.fromLoaderOnly]))
            #expect(again.cacheType == .none)
            #expect(harness.server.requestCount("/lo.png") == 2)
        }
    }

    @Test func storeCacheTypeNoneKeepsNothing() async throws {
        try await withHarness { harness in
            harness.server.route("/none.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let url = harness.server.url("/none.png")
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.storeCacheType = .none
            _ = try await manager.image(for: request)
            let cache = manager.configuration.imageCache
            #expect(cache.memoryImage(forKey: url.absoluteString) == nil)
            #expect(try await diskEntry(cache, url.absoluteString) == nil)
        }
    }

    @Test func theOptionsProcessorSeesTypedUserInfo() async throws {
        try await withHarness { harness in
            harness.server.route("/ui.png", response: .status(404))
            let manager = try harness.makeManager { configuration in
                configuration.optionsProcessor = { request in
                    var request = request
                    if request.userInfo[ForceRetry.self] { request.options.insert(.retryFailed) }
                    return request
                }
            }
            let url = harness.server.url("/ui.png")
            _ = await failureCode { try await manager.image(for: url) }
            #expect(await failureCode { try await manager.image(for: url) } == .blockedURL)
            var request = ImageRequest(url: url)
            request.userInfo[ForceRetry.self] = true
            #expect(await failureCode { try await manager.image(for: request) } == .invalidDownloadStatusCode)
            #expect(harness.server.requestCount("/ui.png") == 2)
        }
    }

    @Test func requestsWithDifferentPrioritiesShareOneDownload() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/pr.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let url = harness.server.url("/pr.png")
            let visible = manager.task(for: ImageRequest(url: url, options: [.highPriority]))
            let prefetch = manager.task(for: ImageRequest(url: url, options: [.lowPriority]))
            #expect(visible.priority == .high)
            #expect(prefetch.priority == .low)
            await gate.waitForArrivals(1)
            gate.open()
            #expect(try await visible.response.image === prefetch.response.image)
            #expect(harness.server.requestCount("/pr.png") == 1)
        }
    }

    @Test func preloadAllFramesFillsTheFramePoolWithinItsBudget() async throws {
        try await withHarness { harness in
            let frames = (0..<5).map { AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: 0.1) }
            let animated = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames))
            let gif = try GIFCoder().encode(animated, as: .gif, options: ImageEncodingOptions())
            harness.server.route("/anim.gif", response: .ok(gif))
            let frameBytes = 32 * 32 * 4
            let pool = AnimatedFramePool(budget: 3 * frameBytes)
            let manager = try harness.makeManager { configuration in
                configuration.coders = ImageCodersManager(coders: ImageCodersManager.standard().coders, framePool: pool)
            }
            let url = harness.server.url("/anim.gif")
            let plain = try await manager.image(for: ImageRequest(url: url, options: [.fromLoaderOnly]))
            #expect((plain.image.animation as? PooledAnimation)?.pool === pool)
            #expect(pool.statistics.frameCount == 0)  // decoded on demand: nothing held
            let preloaded = try await manager.image(for: ImageRequest(url: url, options: [.fromLoaderOnly, .preloadAllFrames]))
            let animation = try #require(preloaded.image.animation as? PooledAnimation)
            #expect(animation.pooledFrameCount == 3 && pool.statistics.bytesHeld == 3 * frameBytes)  // as many as fit
            #expect(preloaded.image.memoryCost == 4 * frameBytes)
        }
    }
}
