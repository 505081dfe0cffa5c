import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// An error type of the caller's own, as a custom coder or transformer throws.
struct CallerError: Error, Equatable {
    let reason: String
}

/// A GIF of three moving-square frames, encoded with our GIF encoder.
func animatedGIF() throws -> Data {
    try ImageCodersManager.standard().encode(ImageFixtures.animation(frames: 3), as: .gif, options: ImageEncodingOptions())
}

@Suite("ImageManager: thumbnails, first frames and data", .timeLimit(.minutes(3)))
struct ManagerDerivedImageTests {
    @Test func aThumbnailNeverCarriesTheOriginalsBytes() async throws {
        try await withHarness { harness in
            let png = try Fixture.png(width: 64, height: 48)
            harness.server.route("/td.png", response: .ok(png))
            let url = harness.server.url("/td.png")
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            let downloaded = try await harness.makeManager().image(for: request)
            #expect(downloaded.image.pixelSize == PixelSize(width: 16, height: 12))
            #expect(downloaded.data == nil)
            // A new manager: the thumbnail is made from the original bytes on disk.
            var other = request
            other.thumbnailPixelSize = PixelSize(width: 8, height: 8)
            let fromDisk = try await harness.makeManager().image(for: other)
            #expect(fromDisk.cacheType == .disk)
            #expect(fromDisk.data == nil)
            // A transformed image carries no bytes either; the full-size image carries the original's.
            var transformed = ImageRequest(url: url)
            transformed.transformer = CropTransformer(rect: PixelRect(x: 0, y: 0, width: 4, height: 4))
            #expect(try await harness.makeManager().image(for: transformed).data == nil)
            #expect(try await harness.makeManager().image(for: url).data == png)
            #expect(harness.server.requestCount("/td.png") == 1)
        }
    }

    @Test func firstFrameOnlyIsPartOfTheCacheKey() async throws {
        try await withHarness { harness in
            harness.server.route("/anim.gif", response: .ok(try animatedGIF(), contentType: "image/gif"))
            let url = harness.server.url("/anim.gif")
            let firstFrame = ImageRequest(url: url, options: [.decodeFirstFrameOnly, .waitStoreCache])
            let full = ImageRequest(url: url, options: [.waitStoreCache])

            let manager = try harness.makeManager()
            let firstKey = try #require(manager.cacheKey(for: firstFrame))
            #expect(firstKey.hasSuffix("-FirstFrame.gif"))
            #expect(manager.cacheKey(for: full) == url.absoluteString)
            // First frame, then the full animation, from one manager.
            #expect(try await manager.image(for: firstFrame).image.animation == nil)
            let animated = try await manager.image(for: full)
            #expect(animated.image.animation?.frameCount == 3)
            // The full animation first (a new manager), then a first-frame request: a static image.
            let other = try harness.makeManager()
            #expect(try await other.image(for: full).image.animation?.frameCount == 3)
            let still = try await other.image(for: firstFrame)
            #expect(still.image.animation == nil)
            #expect(other.configuration.imageCache.memoryImage(forKey: url.absoluteString)?.animation?.frameCount == 3)
            #expect(harness.server.requestCount("/anim.gif") == 1)
        }
    }
}

@Suite("ImageManager: local files, cache keys, errors", .timeLimit(.minutes(3)))
struct ManagerLocalAndKeyTests {
    @Test func fileAndDataURLsAreNotCopiedToTheDiskCache() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            let file = harness.directory.deletingLastPathComponent()
                .appendingPathComponent("webimage-local-\(UUID().uuidString).png")
            try png.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let dataURL = try #require(URL(string: "data:image/png;base64,\(png.base64EncodedString())"))
            let manager = try harness.makeManager()
            let cache = manager.configuration.imageCache
            for url in [file, dataURL] {
                let response = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
                #expect(response.image.pixelSize == PixelSize(width: 64, height: 48))
                var thumbnail = ImageRequest(url: url, options: [.waitStoreCache])
                thumbnail.thumbnailPixelSize = PixelSize(width: 8, height: 8)
                _ = try await manager.image(for: thumbnail)
                // Memory keeps them; the disk does not.
                #expect(cache.memoryImage(forKey: url.absoluteString) != nil)
                #expect(try await diskEntry(cache, url.absoluteString) == nil)
                #expect(try await diskEntry(cache, try #require(manager.cacheKey(for: thumbnail))) == nil)
            }
            #expect(try await cache.totalCount(cacheType: .disk) == 0)
        }
    }

    @Test func storeLocalFilesOnDiskCopiesThemWhenAsked() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            let url = try #require(URL(string: "data:image/png;base64,\(png.base64EncodedString())"))
            let manager = try harness.makeManager()
            _ = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache, .storeLocalFilesOnDisk]))
            #expect(try await diskEntry(manager.configuration.imageCache, url.absoluteString)?.data == png)
        }
    }

    @Test func anEmptyCacheKeyFailsAndStoresNothing() async throws {
        try await withHarness { harness in
            harness.server.route("/e.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            var request = ImageRequest(url: harness.server.url("/e.png"), options: [.waitStoreCache])
            request.cacheKeyFilter = { _ in "" }
            #expect(await failureCode { try await manager.image(for: request) } == .invalidCacheKey)
            #expect(harness.server.requestCount("/e.png") == 0)
            #expect(try await manager.configuration.imageCache.totalCount(cacheType: .all) == 0)
        }
    }

    @Test func aKeyFilterReturningNilDisablesCaching() async throws {
        try await withHarness { harness in
            harness.server.route("/nc.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let url = harness.server.url("/nc.png")
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.cacheKeyFilter = { _ in nil }
            #expect(try await manager.image(for: request).cacheType == .none)
            #expect(try await manager.image(for: request).cacheType == .none)
            #expect(harness.server.requestCount("/nc.png") == 2)
            #expect(try await manager.configuration.imageCache.totalCount(cacheType: .all) == 0)
        }
    }

    @Test func aCustomDecodersErrorIsDecodingFailedNamingIt() async throws {
        struct Exploding: ImageCoding {
            var name: String { "exploding" }
            func canDecode(_ data: Data) -> Bool { true }
            func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image { throw CallerError(reason: "decode") }
            func canEncode(_ format: ImageFormat) -> Bool { false }
            func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data { Data() }
        }
        try await withHarness { harness in
            harness.server.route("/x.png", response: .ok(try Fixture.png()))
            var request = ImageRequest(url: harness.server.url("/x.png"))
            request.coder = Exploding()
            do {
                _ = try await harness.makeManager().image(for: request)
                Issue.record("a failing decoder produced an image")
            } catch let error as WebImageError {
                #expect(error.code == .decodingFailed)
                #expect(error.message.contains("exploding"))
                #expect(error.underlying as? CallerError == CallerError(reason: "decode"))
            }
        }
    }

    @Test func aTransformersErrorIsTransformFailedNamingIt() async throws {
        struct Failing: ImageTransforming {
            var key: String { "Failing(1)" }
            func transform(_ image: Image) throws -> Image { throw CallerError(reason: "transform") }
        }
        try await withHarness { harness in
            harness.server.route("/y.png", response: .ok(try Fixture.png()))
            var request = ImageRequest(url: harness.server.url("/y.png"))
            request.transformer = Failing()
            do {
                _ = try await harness.makeManager().image(for: request)
                Issue.record("a failing transformer produced an image")
            } catch let error as WebImageError {
                #expect(error.code == .transformFailed)
                #expect(error.message.contains("Failing(1)"))
                #expect(error.underlying as? CallerError == CallerError(reason: "transform"))
            }
        }
    }
}
