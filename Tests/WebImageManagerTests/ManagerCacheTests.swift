import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@Suite("ImageManager: cache stages", .timeLimit(.minutes(3)))
struct ManagerCacheTests {
    @Test func memoryHitMakesNoRequest() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.route("/a.png", response: .ok(png))
            let manager = try harness.makeManager()
            let url = harness.server.url("/a.png")
            let first = try await manager.image(for: url)
            #expect(first.cacheType == .none)
            #expect(first.data == png)
            #expect(first.image.pixelSize == PixelSize(width: 64, height: 48))
            let second = try await manager.image(for: url)
            #expect(second.cacheType == .memory)
            #expect(second.image === first.image)
            #expect(harness.server.requestCount("/a.png") == 1)
            #expect(harness.coders.decodeCount == 1)
        }
    }

    @Test func diskHitFromANewManagerInstance() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.route("/d.png", response: .ok(png))
            let url = harness.server.url("/d.png")
            let first = try await harness.makeManager().image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            let other = try harness.makeManager()
            let hit = try await other.image(for: url)
            #expect(hit.cacheType == .disk)
            #expect(hit.data == png)
            #expect(hit.image.pixels == first.image.pixels)
            #expect(harness.server.requestCount("/d.png") == 1)
            // The decoded disk hit went into memory.
            #expect(try await other.image(for: url).cacheType == .memory)
        }
    }

    @Test func fromCacheOnlyOnAMissFailsWithoutARequest() async throws {
        try await withHarness { harness in
            harness.server.route("/m.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let code = await failureCode {
                try await manager.image(for: ImageRequest(url: harness.server.url("/m.png"), options: [.fromCacheOnly]))
            }
            #expect(code == .notCached)
            #expect(harness.server.requestCount("/m.png") == 0)
        }
    }

    @Test func aStringThatIsNotAURLGivesInvalidURL() async throws {
        try await withHarness { harness in
            let manager = try harness.makeManager()
            #expect(await failureCode { try await manager.image(for: ImageRequest(string: "")) } == .invalidURL)
            #expect(await failureCode { try await manager.image(for: ImageRequest(url: nil)) } == .invalidURL)
            #expect(await failureCode { try await manager.image(for: ImageRequest(string: "not a url")) } == .invalidURL)
            #expect(await failureCode { try await manager.image(for: ImageRequest(string: "gopher://x/y.png")) } == .invalidURL)
        }
    }

    @Test func transformedKeysAreKeptApartAndTheCachedOriginalIsReused() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.route("/t.png", response: .ok(png))
            let manager = try harness.makeManager()
            let url = harness.server.url("/t.png")
            var resize = ImageRequest(url: url, options: [.waitStoreCache])
            resize.transformer = ResizeTransformer(size: PixelSize(width: 16, height: 16), mode: .aspectFill)
            var crop = ImageRequest(url: url, options: [.waitStoreCache])
            crop.transformer = CropTransformer(rect: PixelRect(x: 0, y: 0, width: 10, height: 20))

            let resized = try await manager.image(for: resize)
            #expect(resized.image.pixelSize == PixelSize(width: 16, height: 16))
            #expect(resized.cacheType == .none)
            let cropped = try await manager.image(for: crop)
            #expect(cropped.image.pixelSize == PixelSize(width: 10, height: 20))
            #expect(cropped.cacheType == .disk)  // the original came from the disk cache
            #expect(harness.server.requestCount("/t.png") == 1)

            let resizeKey = try #require(manager.cacheKey(for: resize))
            let cropKey = try #require(manager.cacheKey(for: crop))
            #expect(resizeKey != cropKey)
            #expect(resizeKey.hasSuffix(".png"))
            #expect(resizeKey.contains("-ResizeTransformer(16x16,aspectFill)"))
            let cache = manager.configuration.imageCache
            #expect(cache.memoryImage(forKey: resizeKey)?.pixelSize == PixelSize(width: 16, height: 16))
            #expect(cache.memoryImage(forKey: cropKey)?.pixelSize == PixelSize(width: 10, height: 20))
            // The original bytes were stored as downloaded, the transformed ones encoded as PNG.
            #expect(try await diskEntry(cache, url.absoluteString)?.data == png)
            let stored = try #require(try await diskEntry(cache, resizeKey)?.data)
            #expect(ImageFormat.detect(in: stored) == .png)
            #expect(try PNGCoder().decode(stored).pixelSize == PixelSize(width: 16, height: 16))

            // A new manager finds the transformed image on disk without any request.
            let again = try await harness.makeManager().image(for: resize)
            #expect(again.cacheType == .disk)
            #expect(again.image.pixelSize == PixelSize(width: 16, height: 16))
            #expect(harness.server.requestCount("/t.png") == 1)
        }
    }

    @Test(arguments: [ImageFormat.jpeg, .webp, .gif])
    func aTransformedImageIsStoredInItsSourceFormat(format: ImageFormat) async throws {
        try await withHarness { harness in
            let source = Image(pixels: ImageFixtures.gradient(width: 64, height: 48), format: format)
            let bytes = try ImageCodersManager.standard().encode(source, as: format, options: ImageEncodingOptions())
            harness.server.route("/f.\(format.fileExtension)", response: .ok(bytes))
            let manager = try harness.makeManager()
            var request = ImageRequest(url: harness.server.url("/f.\(format.fileExtension)"), options: [.waitStoreCache])
            request.transformer = ResizeTransformer(size: PixelSize(width: 16, height: 16), mode: .aspectFill)
            let response = try await manager.image(for: request)
            #expect(response.image.format == format)
            #expect(response.image.pixelSize == PixelSize(width: 16, height: 16))
            let key = try #require(manager.cacheKey(for: request))
            let stored = try #require(try await diskEntry(manager.configuration.imageCache, key)?.data)
            #expect(ImageFormat.detect(in: stored) == format)
        }
    }

    @Test func scaleDownOfALargeImage() async throws {
        try await withHarness { harness in
            let png = try Fixture.png(width: 1200, height: 900)
            harness.server.route("/big.png", response: .ok(png))
            let manager = try harness.makeManager()
            var request = ImageRequest(url: harness.server.url("/big.png"), options: [.scaleDownLargeImages])
            request.scaleDownLimitBytes = 400 * 1024
            let response = try await manager.image(for: request)
            #expect(response.image.pixelSize.pixelCount * 4 <= 400 * 1024)
            #expect(response.image.pixelSize.pixelCount * 4 > 300 * 1024)
            #expect(response.image.originalPixelSize == PixelSize(width: 1200, height: 900))
            // The scale-down limit is not part of the key.
            #expect(manager.cacheKey(for: request) == harness.server.url("/big.png").absoluteString)
        }
    }

    @Test func thumbnailRequests() async throws {
        try await withHarness { harness in
            let png = try Fixture.png(width: 64, height: 48)
            harness.server.route("/th.png", response: .ok(png))
            let manager = try harness.makeManager()
            let url = harness.server.url("/th.png")
            var small = ImageRequest(url: url, options: [.waitStoreCache])
            small.thumbnailPixelSize = PixelSize(width: 32, height: 32)
            let thumbnail = try await manager.image(for: small)
            #expect(thumbnail.image.pixelSize == PixelSize(width: 32, height: 24))
            let key = try #require(manager.cacheKey(for: small))
            #expect(key.contains("-Thumbnail(") && key.hasSuffix(".png"))
            #expect(key != url.absoluteString)
            let cache = manager.configuration.imageCache
            // The thumbnail is in memory under its own key; the original key holds no thumbnail.
            #expect(cache.memoryImage(forKey: key)?.pixelSize == PixelSize(width: 32, height: 24))
            #expect(cache.memoryImage(forKey: url.absoluteString) == nil)
            #expect(try await diskEntry(cache, url.absoluteString)?.data == png)

            // The full-size image reuses the original on disk; a stretched thumbnail has its own key.
            let full = try await manager.image(for: url)
            #expect(full.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(full.cacheType == .disk)
            var stretched = ImageRequest(url: url)
            stretched.thumbnailPixelSize = PixelSize(width: 32, height: 32)
            stretched.preserveAspectRatio = false
            #expect(try await manager.image(for: stretched).image.pixelSize == PixelSize(width: 32, height: 32))
            #expect(harness.server.requestCount("/th.png") == 1)
        }
    }
}
