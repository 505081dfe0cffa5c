import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageWebP

/// Completeness before allocation, the animation budget and the header probe for WebP.
@Suite("WebP limits")
struct WebPLimitTests {
    @Test("The hand-built single-colour lossless WebP is valid (checks the bomb generator)")
    func generatorIsValid() throws {
        let data = DecompressionBombs.webPLossless(width: 16, height: 12)
        let image = try WebPCoder().decode(data, options: ImageDecodingOptions(alphaMode: .straight))
        #expect(image.pixelSize == PixelSize(width: 16, height: 12))
        #expect(image.pixels[15, 11] == RGBA8(r: 0, g: 0, b: 0, a: 255))
    }

    @Test("A 38-byte WebP declaring 10000×10000 with its image data missing is refused before allocating")
    func truncatedRefused() throws {
        let bomb = DecompressionBombs.truncatedWebP()
        #expect(bomb.count == 38)
        let error = try #require(throws: WebImageError.self) { try WebPCoder().decode(bomb) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("truncated"), "\(error.message)")
    }

    @Test("The header probe reads 10000×10000 from a 30-byte WebP without decoding it")
    func headerProbe() throws {
        let data = DecompressionBombs.webPLossless()
        let header = try WebPCoder().readHeader(data)
        #expect(header.pixelSize == PixelSize(width: 10_000, height: 10_000))
        #expect(header.frameCount == 1)
        #expect(header.hasAlpha == false)
        #expect(header.decodedByteCount == 400_000_000)
    }

    @Test("An animation over the budget is refused before frame 0; first-frame-only ignores the budget")
    func animationBudget() throws {
        let animated = try WebPCoder().encode(
            ImageFixtures.animation(frames: 6, loopCount: 2), as: .webp, options: ImageEncodingOptions(lossless: true))
        var options = ImageDecodingOptions()
        options.maxAnimationPixelCount = 5 * 32 * 32
        let error = try #require(throws: WebImageError.self) { try WebPCoder().decode(animated, options: options) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("6 frames of 32×32"), "\(error.message)")

        options.firstFrameOnly = true
        #expect(try WebPCoder().decode(animated, options: options).animation == nil)

        let header = try WebPCoder().readHeader(animated)
        let image = try WebPCoder().decode(animated)
        #expect(header.frameCount == 6 && image.animation?.frameCount == 6)
        #expect(header.loopCount == 2 && image.animation?.loopCount == 2)
        #expect(header.frameDurations == (0..<6).map { image.animation?.duration(at: $0) ?? -1 })
    }
}
