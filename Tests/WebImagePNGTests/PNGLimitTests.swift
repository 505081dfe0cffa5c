import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// Size limits before libpng allocates, and the animation budget for APNG.
@Suite("PNG limits")
struct PNGLimitTests {
    @Test("A 74-byte PNG declaring 700000000×1 is tooLarge from its header")
    func stripBomb() throws {
        let bomb = DecompressionBombs.pngStrip()
        #expect(bomb.count == 74)
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(bomb) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("700000000×1"), "\(error.message)")
    }

    @Test("libpng's own limits refuse a side over the pixel limit (typed tooLarge)")
    func libpngUserLimit() throws {
        // 300×1 is over a 200-pixel limit by its width alone.
        let bomb = DecompressionBombs.pngStrip(width: 300, height: 1)
        var options = ImageDecodingOptions()
        options.maxPixelCount = 200
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(bomb, options: options) }
        #expect(error.code == .tooLarge)
    }

    @Test("The header probe reports the declared size without decoding")
    func headerOfBomb() throws {
        let header = try PNGCoder().readHeader(DecompressionBombs.pngStrip())
        #expect(header.pixelSize == PixelSize(width: 700_000_000, height: 1))
        #expect(header.format == .png)
        #expect(header.frameCount == 1)
        #expect(header.hasAlpha == true)
    }

    @Test("A 5,000-frame APNG on a 500×500 canvas is over the default animation budget")
    func manyFrameAPNGRefused() throws {
        let bomb = DecompressionBombs.manyFrameAPNG()
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(bomb) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("animation budget"), "\(error.message)")
        // The header probe still counts every frame.
        let header = try PNGCoder().readHeader(bomb)
        #expect(header.frameCount == 5_000)
        #expect(header.format == .apng)
        #expect(header.loopCount == 0)
    }

    @Test("The APNG budget is configurable, and first-frame-only decoding ignores it")
    func configurableBudget() throws {
        let animation = DecompressionBombs.manyFrameAPNG(frames: 50, width: 100, height: 100)
        var options = ImageDecodingOptions()
        options.maxAnimationPixelCount = 100_000  // 10 frames of 100×100
        let error = try #require(throws: WebImageError.self) { try PNGCoder().decode(animation, options: options) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("more than 10 frames"), "\(error.message)")

        options.firstFrameOnly = true
        let still = try PNGCoder().decode(animation, options: options)
        #expect(still.animation == nil)
        #expect(still.pixelSize == PixelSize(width: 100, height: 100))

        let image = try PNGCoder().decode(animation)
        #expect(image.animation?.frameCount == 50)
    }
}
