import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// Encoding with libpng and decoding back.
@Suite struct PNGRoundTripTests {
    let straight = ImageDecodingOptions(alphaMode: .straight)

    /// IHDR's colour type byte.
    func colorType(_ data: Data) -> UInt8 { [UInt8](data)[25] }

    @Test func coderIdentity() {
        let coder = PNGCoder()
        #expect(coder.name == "png")
        #expect(coder.canEncode(.png) && coder.canEncode(.apng))
        #expect(!coder.canEncode(.jpeg))
    }

    @Test func opaqueImagesAreWrittenAsRGBAndRoundTripExactly() throws {
        let pixels = ImageFixtures.gradient(width: 37, height: 23)
        let data = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        #expect(ImageFormat.detect(in: data) == .png)
        #expect(colorType(data) == 2)
        let decoded = try PNGCoder().decode(data)
        #expect(decoded.pixels == pixels)
        #expect(!decoded.hasAlpha)
        #expect(decoded.format == .png)
    }

    @Test func translucentImagesAreWrittenAsStraightRGBA() throws {
        let pixels = ImageFixtures.translucentGradient(width: 31, height: 9, alphaMode: .straight)
        let data = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        #expect(colorType(data) == 6)
        let decoded = try PNGCoder().decode(data, options: straight)
        #expect(decoded.pixels == pixels)
        #expect(decoded.hasAlpha)
        // Premultiplied input is un-premultiplied on the way out (and decodes straight by default).
        let premultiplied = pixels.premultiplied()
        let again = try PNGCoder().decode(
            try PNGCoder().encode(Image(pixels: premultiplied), as: .png, options: ImageEncodingOptions()))
        #expect(again.pixels == premultiplied.unpremultiplied())
    }

    @Test(arguments: [0, 1, 6, 9])
    func everyCompressionLevelDecodes(level: Int) throws {
        let pixels = ImageFixtures.gradient(width: 64, height: 64)
        let data = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions(compressionLevel: level))
        #expect(try PNGCoder().decode(data).pixels == pixels)
    }

    @Test func higherCompressionIsSmaller() throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 128, height: 128))
        let stored = try PNGCoder().encode(image, as: .png, options: ImageEncodingOptions(compressionLevel: 0))
        let best = try PNGCoder().encode(image, as: .png, options: ImageEncodingOptions(compressionLevel: 9))
        #expect(best.count < stored.count)
        #expect(stored.count > 128 * 128 * 3)
    }

    @Test func thumbnailAndScaleFactor() throws {
        let data = try PNGCoder().encode(
            Image(pixels: ImageFixtures.gradient(width: 100, height: 50)), as: .png, options: ImageEncodingOptions())
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 20, height: 20)
        options.scaleFactor = 2
        let image = try PNGCoder().decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 20, height: 10))
        #expect(image.originalPixelSize == PixelSize(width: 100, height: 50))
        #expect(image.scale == 2)
    }

    @Test func stillImageAsAPNGIsASingleFrameAPNG() throws {
        let pixels = ImageFixtures.gradient(width: 8, height: 8)
        let data = try PNGCoder().encode(Image(pixels: pixels), as: .apng, options: ImageEncodingOptions())
        #expect(ImageFormat.detect(in: data) == .apng)
        #expect(TestPNG.chunkTypes(data) == ["IHDR", "acTL", "fcTL", "IDAT", "IEND"])
        let decoded = try PNGCoder().decode(data)
        #expect(decoded.pixels == pixels)
        #expect(decoded.format == .apng)
        #expect(decoded.animation == nil)
    }

    @Test func throughTheCodersManagerAndItsEncodingLimits() throws {
        let manager = ImageCodersManager(coders: [PNGCoder()])
        let image = Image(pixels: ImageFixtures.gradient(width: 40, height: 20))
        let data = try manager.encode(image, as: .png, options: ImageEncodingOptions(maxPixelSize: PixelSize(width: 10, height: 10)))
        #expect(try manager.decode(data, options: ImageDecodingOptions()).pixelSize == PixelSize(width: 10, height: 5))
    }
}
