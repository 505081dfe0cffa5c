import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageWebP

@Suite struct WebPStillCodingTests {
    let coder = WebPCoder()

    @Test func recognisesWebPOnly() throws {
        let data = try WebPTestData.encode(ImageFixtures.gradient(width: 8, height: 8), lossless: true)
        #expect(coder.name == "webp")
        #expect(coder.canDecode(data))
        #expect(!coder.canDecode(Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(coder.canEncode(.webp))
        #expect(!coder.canEncode(.png))
    }

    @Test func losslessRoundTripIsExact() throws {
        let source = ImageFixtures.translucentGradient(width: 61, height: 37, alphaMode: .straight)
        let data = try WebPTestData.encode(source, lossless: true)
        let image = try coder.decode(data, options: WebPTestData.straight)
        #expect(image.format == .webp)
        #expect(image.hasAlpha)
        #expect(image.pixels == source)
    }

    @Test func lossyRoundTripIsClose() throws {
        let source = ImageFixtures.gradient(width: 64, height: 48, alphaMode: .straight)
        let data = try WebPTestData.encode(source, lossless: false, quality: 0.9)
        let image = try coder.decode(data, options: WebPTestData.straight)
        #expect(image.pixelSize == source.size)
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
        #expect(ImageFixtures.meanAbsoluteDifference(image.pixels, source) < 3)
        #expect(image.pixels != source)  // really lossy: the lossless path was not taken.
    }

    @Test func lossyQualityChangesTheSize() throws {
        let source = ImageFixtures.gradient(width: 96, height: 96, alphaMode: .straight)
        let low = try WebPTestData.encode(source, lossless: false, quality: 0.1)
        let high = try WebPTestData.encode(source, lossless: false, quality: 1)
        #expect(low.count < high.count)
    }

    @Test(arguments: [false, true])
    func alphaIsKept(lossless: Bool) throws {
        let source = ImageFixtures.translucentGradient(width: 40, height: 24, alphaMode: .straight)
        let data = try WebPTestData.encode(source, lossless: lossless)
        let image = try coder.decode(data, options: WebPTestData.straight)
        #expect(image.hasAlpha)
        var worstAlpha = 0
        for i in stride(from: 3, to: source.bytes.count, by: 4) {
            worstAlpha = max(worstAlpha, abs(Int(source.bytes[i]) - Int(image.pixels.bytes[i])))
        }
        #expect(worstAlpha == 0)
    }

    @Test func premultipliedOutputMatchesStraightPremultiplied() throws {
        let source = ImageFixtures.translucentGradient(width: 33, height: 20, alphaMode: .straight)
        for lossless in [true, false] {
            let data = try WebPTestData.encode(source, lossless: lossless)
            let straight = try coder.decode(data)
            let premultiplied = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
            #expect(straight.pixels.alphaMode == .straight)
            #expect(premultiplied.pixels.alphaMode == .premultiplied)
            #expect(premultiplied.pixels == straight.pixels.premultiplied())
        }
    }

    @Test func premultipliedInputIsEncodedAsStraight() throws {
        let straight = ImageFixtures.translucentGradient(width: 20, height: 10, alphaMode: .straight)
        let data = try WebPTestData.encode(straight.premultiplied(), lossless: true)
        let decoded = try coder.decode(data, options: WebPTestData.straight)
        #expect(ImageFixtures.maxAbsoluteDifference(decoded.pixels.premultiplied(), straight.premultiplied()) == 0)
    }

    @Test func thumbnailDecodesAtTheExactTargetSize() throws {
        let data = try WebPTestData.encode(ImageFixtures.gradient(width: 200, height: 100), lossless: false)
        var options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 50, height: 50))
        let fitted = try coder.decode(data, options: options)
        #expect(fitted.pixelSize == PixelSize(width: 50, height: 25))
        #expect(fitted.originalPixelSize == PixelSize(width: 200, height: 100))
        options.preserveAspectRatio = false
        let stretched = try coder.decode(data, options: options)
        #expect(stretched.pixelSize == PixelSize(width: 50, height: 50))
    }

    @Test func scaledLosslessDecodeIsCloseToResampledFullDecode() throws {
        let source = ImageFixtures.gradient(width: 120, height: 80)
        let data = try WebPTestData.encode(source, lossless: true)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 60, height: 60))
        let scaled = try coder.decode(data, options: options)
        #expect(scaled.pixelSize == PixelSize(width: 60, height: 40))
        let reference = Resampler.resample(source, to: scaled.pixelSize)
        #expect(ImageFixtures.meanAbsoluteDifference(scaled.pixels, reference) < 4)
    }

    @Test func scaleDownLimitShrinksTheDecode() throws {
        let data = try WebPTestData.encode(ImageFixtures.gradient(width: 100, height: 100), lossless: true)
        let options = ImageDecodingOptions(scaleDownLimitBytes: 50 * 50 * 4)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == options.targetSize(for: PixelSize(width: 100, height: 100)))
        #expect(image.pixelSize.pixelCount <= 50 * 50)
    }

    @Test func scaleFactorIsCarried() throws {
        let data = try WebPTestData.encode(ImageFixtures.gradient(width: 8, height: 8), lossless: true)
        let image = try coder.decode(data, options: ImageDecodingOptions(scaleFactor: 2))
        #expect(image.scale == 2)
        #expect(image.size == (4, 4))
    }

    @Test(arguments: [false, true])
    func exifOrientationIsExposedNotApplied(bigEndian: Bool) throws {
        let pixels = ImageFixtures.gradient(width: 12, height: 7, alphaMode: .straight)
        let plain = try WebPTestData.encode(pixels, lossless: true)
        let data = WebPTestData.riff([
            WebPTestData.vp8x(flags: 0x08, width: 12, height: 7),
            WebPTestData.chunks(of: plain),
            WebPTestData.chunk("EXIF", WebPTestData.exif(orientation: 6, bigEndian: bigEndian)),
        ])
        let image = try coder.decode(data, options: WebPTestData.straight)
        #expect(image.orientation == .right)
        #expect(image.pixels == pixels)
        #expect(try coder.decode(plain).orientation == .up)
    }

    @Test func encodingAnotherFormatIsRefused() throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 4, height: 4))
        let error = try #require(throws: WebImageError.self) { try coder.encode(image, as: .png, options: .init()) }
        #expect(error.code == .unsupportedFormat)
    }

    @Test func encodingOversizedImagesFails() throws {
        let wide = Image(pixels: PixelBuffer(width: 16384, height: 1, alphaMode: .premultiplied))
        let error = try #require(throws: WebImageError.self) { try coder.encode(wide, as: .webp, options: .init()) }
        #expect(error.code == .encodingFailed)
    }
}
