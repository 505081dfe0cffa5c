import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// Where the manager used to differ from SDWebImage, Kingfisher and Nuke without a reason (issue 27).
@Suite("ImageManager: behaviour beside the peers", .timeLimit(.minutes(3)))
struct ManagerPeerParityTests {
    @Test func aThumbnailIsKeptInMemoryUnderItsOwnKeyBesideTheFullImage() async throws {
        try await withHarness { harness in
            harness.server.route("/big.png", response: .ok(try Fixture.png(width: 64, height: 48)))
            let url = harness.server.url("/big.png")
            let manager = try harness.makeManager()
            let cache = manager.configuration.imageCache
            #expect(try await manager.image(for: url).image.pixelSize == PixelSize(width: 64, height: 48))
            var thumbnail = ImageRequest(url: url)
            thumbnail.decoding.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            let key = try #require(manager.cacheKey(for: thumbnail))
            #expect(try await manager.image(for: thumbnail).image.pixelSize == PixelSize(width: 16, height: 12))
            #expect(cache.memoryImage(forKey: key)?.pixelSize == PixelSize(width: 16, height: 12))

            let decodes = harness.coders.decodeCount
            let again = try await manager.image(for: thumbnail)
            #expect(again.cacheType == .memory && again.image.pixelSize == PixelSize(width: 16, height: 12))
            #expect(manager.cachedImage(for: thumbnail)?.image.pixelSize == PixelSize(width: 16, height: 12))
            #expect(harness.coders.decodeCount == decodes)
            // The full image's entry is still the full image.
            #expect(cache.memoryImage(forKey: url.absoluteString)?.pixelSize == PixelSize(width: 64, height: 48))
            #expect(try await manager.image(for: url).cacheType == .memory)
        }
    }

    @Test func aFirstFrameRequestIsAnsweredFromTheAnimationInMemory() async throws {
        try await withHarness { harness in
            harness.server.route("/anim.gif", response: .ok(try animatedGIF(), contentType: "image/gif"))
            let url = harness.server.url("/anim.gif")
            let manager = try harness.makeManager()
            let full = try await manager.image(for: url)
            #expect(full.image.animation?.frameCount == 3)
            let decodes = harness.coders.decodeCount

            let firstFrame = ImageRequest(url: url, options: [.decodeFirstFrameOnly])
            let response = try await manager.image(for: firstFrame)
            #expect(response.cacheType == .memory)
            #expect(response.image.animation == nil)
            #expect(response.image.pixels == full.image.pixels)
            #expect(response.image.format == .gif)
            #expect(response.data == nil)
            #expect(harness.coders.decodeCount == decodes)
            #expect(harness.server.requestCount("/anim.gif") == 1)
            // Kept under its own key; the animation stays the full image's entry.
            let key = try #require(manager.cacheKey(for: firstFrame))
            #expect(manager.configuration.imageCache.memoryImage(forKey: key)?.animation == nil)
            #expect(manager.configuration.imageCache.memoryImage(forKey: url.absoluteString)?.animation?.frameCount == 3)

            // A transformer on the first frame works from it too.
            var flipped = firstFrame
            flipped.transformer = FlipTransformer(horizontal: true)
            let transformed = try await manager.image(for: flipped)
            #expect(transformed.image.pixels == (try FlipTransformer(horizontal: true).transform(full.image.firstFrameForTest)).pixels)
            #expect(harness.coders.decodeCount == decodes)
            #expect(harness.server.requestCount("/anim.gif") == 1)
        }
    }

    @Test func aTransformedImageKeepsItsSourcesFormatUnlessTheTransformerNamesOne() async throws {
        try await withHarness { harness in
            let jpeg = try ImageCodersManager.standard().encode(
                Image(pixels: ImageFixtures.gradient(width: 32, height: 24)), as: .jpeg, options: ImageEncodingOptions())
            harness.server.route("/photo.jpg", response: .ok(jpeg, contentType: "image/jpeg"))
            let manager = try harness.makeManager()
            var plain = ImageRequest(url: harness.server.url("/photo.jpg"), options: [.waitStoreCache])
            plain.transformer = ClosureTransformer(key: "repixel") { image in Image(pixels: image.pixels) }
            #expect(try await manager.image(for: plain).image.format == .jpeg)

            var named = plain
            named.transformer = ClosureTransformer(key: "as-png") { image in Image(pixels: image.pixels, format: .png) }
            #expect(try await manager.image(for: named).image.format == .png)

            // Chains too, step by step.
            let source = try ImageCodersManager.standard().decode(jpeg)
            let chain = ChainedTransformer([ClosureTransformer(key: "a") { Image(pixels: $0.pixels) }, FlipTransformer(horizontal: true)])
            #expect(try chain.transform(source).format == .jpeg)
        }
    }

    @Test func aCacheSerializerIsUsedForPlainDownloadsToo() async throws {
        try await withHarness { harness in
            let png = try Fixture.png(width: 20, height: 10)
            harness.server.route("/s.png", response: .ok(png))
            let url = harness.server.url("/s.png")
            let seen = Mutex<[Data?]>([])
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.caching.serializer = { image, original, _ in
                seen.withLock { $0.append(original) }
                return try? ImageCodersManager.standard().encode(image, as: .jpeg, options: ImageEncodingOptions())
            }
            let manager = try harness.makeManager()
            let response = try await manager.image(for: request)
            #expect(response.data == png)
            #expect(seen.withLock { $0 } == [png])
            let stored = try #require(try await diskEntry(manager.configuration.imageCache, url.absoluteString))
            #expect(ImageFormat.detect(in: stored.data ?? Data()) == .jpeg)
            // A fresh manager reads what the serializer wrote.
            let fromDisk = try await harness.makeManager().image(for: url)
            #expect(fromDisk.cacheType == .disk && fromDisk.image.format == .jpeg)
            #expect(fromDisk.image.pixelSize == PixelSize(width: 20, height: 10))

            // nil from the serializer keeps the downloaded bytes.
            harness.server.route("/k.png", response: .ok(png))
            var keeping = ImageRequest(url: harness.server.url("/k.png"), options: [.waitStoreCache])
            keeping.caching.serializer = { _, _, _ in nil }
            _ = try await manager.image(for: keeping)
            #expect(try await diskEntry(manager.configuration.imageCache, harness.server.url("/k.png").absoluteString)?.data == png)
        }
    }

    @Test func storingAnImageWithoutBytesEncodesItForTheDisk() async throws {
        try await withHarness { harness in
            let cache = try harness.makeCache()
            let opaque = Image(pixels: PixelBuffer(width: 8, height: 8, alphaMode: .straight, fill: RGBA8(r: 200, g: 10, b: 10)))
            let clear = Image(pixels: PixelBuffer(width: 8, height: 8, alphaMode: .straight, fill: RGBA8(r: 0, g: 0, b: 0, a: 10)))
            let gif = try ImageCodersManager.standard().decode(try animatedGIF())
            try await cache.store(image: opaque, forKey: "opaque")
            try await cache.store(image: clear, forKey: "clear")
            try await cache.store(image: gif, forKey: "gif")
            #expect(ImageFormat.detect(in: try await diskEntry(cache, "opaque")?.data ?? Data()) == .jpeg)
            #expect(ImageFormat.detect(in: try await diskEntry(cache, "clear")?.data ?? Data()) == .png)
            let gifBytes = try #require(try await diskEntry(cache, "gif")?.data)
            #expect(ImageFormat.detect(in: gifBytes) == .gif)
            #expect(try ImageCodersManager.standard().decode(gifBytes).animation?.frameCount == 3)
            // Read back through the cache.
            let fresh = try harness.makeCache()
            let hit = try #require(try await fresh.query(forKey: "clear", cacheType: .disk))
            #expect(hit.image?.pixels.converted(to: .straight)[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: 10))

            // A cache without a coder keeps such an image in memory only.
            let disk = try DiskCache(configuration: DiskCacheConfiguration(directory: harness.directory, sweepInterval: nil))
            let bare = ImageCache(memory: [MemoryCache()], data: [disk])
            try await bare.store(image: opaque, forKey: "bare")
            #expect(bare.memoryImage(forKey: "bare") != nil)
            #expect(try await diskEntry(bare, "bare") == nil)
        }
    }
}

extension Image {
    /// The poster as a still image (what a first-frame request answers).
    var firstFrameForTest: Image { Image(pixels: pixels, format: format) }
}
