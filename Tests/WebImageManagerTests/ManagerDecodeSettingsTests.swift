import Foundation
import Testing
import WebImageKit
import WebImageTesting

/// The decode settings `serve` uses — pixel limits, draft thumbnails, the alpha representation —
/// reached through `ImageManager.Configuration` and `ImageRequest.decoding` (issue 24).
@Suite("Manager: decode settings")
struct ManagerDecodeSettingsTests {
    /// A 4000×3000 (12 MP) JPEG.
    static func twelveMegapixelJPEG() throws -> Data {
        let image = Image(pixels: ImageFixtures.gradient(width: 4000, height: 3000), format: .jpeg)
        return try ImageCodersManager.standard().encode(image, as: .jpeg, options: ImageEncodingOptions(quality: 0.8))
    }

    @Test("a manager set to 10 MP refuses a 12 MP JPEG with tooLarge; a request may set its own limit")
    func configuredPixelLimit() async throws {
        try await withHarness { harness in
            harness.server.route("/12mp.jpg", response: .ok(try Self.twelveMegapixelJPEG()))
            let url = harness.server.url("/12mp.jpg")
            let manager = try harness.makeManager { $0.maxPixelCount = 10_000_000 }
            let error = try await #require(throws: WebImageError.self) { try await manager.image(for: url) }
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("4000×3000"), "\(error)")
            #expect(error.message.contains("10000000"), "\(error)")

            // The request's own limit wins over the manager's.
            var allowed = ImageRequest(url: url, options: [.retryFailed])
            allowed.decoding.maxPixelCount = 12_000_000
            allowed.decoding.thumbnailPixelSize = PixelSize(width: 400, height: 400)
            let response = try await manager.image(for: allowed)
            #expect(response.image.pixelSize == PixelSize(width: 400, height: 300))

            // The default manager takes it.
            let standard = try harness.makeManager()
            var thumbnail = ImageRequest(url: url)
            thumbnail.decoding.thumbnailPixelSize = PixelSize(width: 400, height: 400)
            #expect(try await standard.image(for: thumbnail).image.pixelSize == PixelSize(width: 400, height: 300))
        }
    }

    @Test("a draft thumbnail stops at the JPEG's DCT scale, under a key of its own; a resize after it resamples once")
    func draftThumbnail() async throws {
        try await withHarness { harness in
            harness.server.route("/12mp.jpg", response: .ok(try Self.twelveMegapixelJPEG()))
            let url = harness.server.url("/12mp.jpg")
            let manager = try harness.makeManager()
            var exact = ImageRequest(url: url)
            exact.decoding.thumbnailPixelSize = PixelSize(width: 512, height: 512)
            var draft = exact
            draft.decoding.draft = true

            #expect(try await manager.image(for: exact).image.pixelSize == PixelSize(width: 512, height: 384))
            // 1/8 would be 500×375, short of the box: the decoder stops at 1/4.
            #expect(try await manager.image(for: draft).image.pixelSize == PixelSize(width: 1000, height: 750))
            let exactKey = try #require(manager.cacheKey(for: exact))
            let draftKey = try #require(manager.cacheKey(for: draft))
            #expect(draftKey == CacheKeys.drafted(exactKey))
            #expect(draftKey.hasSuffix("-Draft.jpg"), "\(draftKey)")

            // Draft plus the resize that follows it: the requested size, as `serve` makes it.
            var resized = draft
            resized.transformer = ResizeTransformer(size: PixelSize(width: 256, height: 256), mode: .aspectFit)
            #expect(try await manager.image(for: resized).image.pixelSize == PixelSize(width: 256, height: 192))
        }
    }

    @Test("a premultiplied decode is asked for per request and kept apart in the cache")
    func premultipliedDecode() async throws {
        try await withHarness { harness in
            let png = try ImageCodersManager.standard().encode(
                Image(pixels: ImageFixtures.gradient(width: 32, height: 32), format: .png), as: .png,
                options: ImageEncodingOptions())
            harness.server.route("/a.png", response: .ok(png))
            let url = harness.server.url("/a.png")
            let manager = try harness.makeManager()
            var request = ImageRequest(url: url)
            request.decoding.alphaMode = .premultiplied
            let premultiplied = try await manager.image(for: request)
            #expect(premultiplied.image.pixels.alphaMode == .premultiplied)
            let straight = try await manager.image(for: url)
            #expect(straight.image.pixels.alphaMode == .straight)
            #expect(manager.cacheKey(for: request) == CacheKeys.premultiplied(try #require(manager.cacheKey(for: ImageRequest(url: url)))))
        }
    }
}
