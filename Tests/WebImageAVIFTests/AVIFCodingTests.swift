import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageAVIF

@Suite struct AVIFCodingTests {
    let coder = AVIFCoder()

    @Test(arguments: [false, true])
    func losslessRoundTripIsExact(translucent: Bool) throws {
        let pixels =
            translucent
            ? ImageFixtures.translucentGradient(width: 40, height: 24) : ImageFixtures.gradient(width: 40, height: 24)
        let data = try AVIFTestData.encode(pixels, lossless: true)
        #expect(ImageFormat.detect(in: data) == .avif)
        #expect(coder.canDecode(data))
        let image = try coder.decode(data)
        #expect(image.format == .avif)
        #expect(image.pixelSize == PixelSize(width: 40, height: 24))
        #expect(image.hasAlpha == translucent)
        #expect(image.pixels.alphaMode == .straight)
        #expect(image.animation == nil)
        #expect(image.orientation == .up)
        // Straight alpha keeps the colour of every pixel, transparent ones included.
        #expect(image.pixels == pixels)
    }

    @Test func lossyRoundTripIsCloseAndQualityChangesTheSize() throws {
        let pixels = ImageFixtures.gradient(width: 64, height: 48)
        let good = try AVIFTestData.encode(pixels, quality: 0.95)
        let poor = try AVIFTestData.encode(pixels, quality: 0.1)
        #expect(poor.count < good.count)
        let decoded = try coder.decode(good)
        #expect(decoded.hasAlpha == false)
        #expect(decoded.pixels.isOpaque)
        #expect(ImageFixtures.meanAbsoluteDifference(decoded.pixels, pixels) < 3)
        #expect(ImageFixtures.meanAbsoluteDifference(try coder.decode(poor).pixels, pixels) < 20)
    }

    @Test func speedIsPassedToTheEncoder() throws {
        // A different speed gives a different bitstream of the same image.
        let pixels = ImageFixtures.gradient(width: 64, height: 64)
        let fast = try coder.encode(Image(pixels: pixels), as: .avif, options: ImageEncodingOptions(quality: 0.7, speed: 10))
        let slow = try coder.encode(Image(pixels: pixels), as: .avif, options: ImageEncodingOptions(quality: 0.7, speed: 4))
        #expect(fast != slow)
        #expect(ImageFixtures.meanAbsoluteDifference(try coder.decode(slow).pixels, pixels) < 4)
    }

    @Test func translucentLossyKeepsAlpha() throws {
        let pixels = ImageFixtures.translucentGradient(width: 48, height: 16)
        let image = try coder.decode(try AVIFTestData.encode(pixels, quality: 0.95))
        #expect(image.hasAlpha)
        let alpha = { (p: PixelBuffer) in stride(from: 3, to: p.bytes.count, by: 4).map { Int(p.bytes[$0]) } }
        let worst = zip(alpha(image.pixels), alpha(pixels)).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 8)
    }

    @Test func premultipliedOutputWhenAsked() throws {
        let pixels = ImageFixtures.translucentGradient(width: 16, height: 8)
        let data = try AVIFTestData.encode(pixels, lossless: true)
        let image = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(image.pixels == pixels.premultiplied())
    }

    @Test func thumbnailIsResampledFromTheFullDecode() throws {
        let pixels = ImageFixtures.gradient(width: 120, height: 60)
        let data = try AVIFTestData.encode(pixels, lossless: true)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 30, height: 30)
        let thumbnail = try coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 30, height: 15))
        #expect(thumbnail.originalPixelSize == PixelSize(width: 120, height: 60))
        #expect(thumbnail.pixels == Resampler.resample(pixels, to: PixelSize(width: 30, height: 15)))
    }

    @Test func headerAgreesWithTheDecode() throws {
        let pixels = ImageFixtures.translucentGradient(width: 33, height: 17)
        let data = try AVIFTestData.encode(pixels)
        let header = try coder.readHeader(data)
        let expected = ImageHeader(format: .avif, pixelSize: PixelSize(width: 33, height: 17), hasAlpha: true, orientation: .up)
        #expect(header == expected)
        #expect(throws: WebImageError.self) { try coder.readHeader(Data("not an avif".utf8)) }
    }

    /// Every `irot`/`imir` combination, as the HEIF spec defines them (rotation anti-clockwise,
    /// then the mirror; mode 0 exchanges top and bottom): checked on a 2×1 image's two pixels.
    @Test func transformsMapToTheOrientationThatDisplaysTheSamePixels() {
        let stored = PixelBuffer(width: 2, height: 1, alphaMode: .straight, bytes: [1, 0, 0, 255, 2, 0, 0, 255])
        func applyTransforms(turns: Int, mirror: UInt8?) -> PixelBuffer {
            var result = stored
            for _ in 0..<turns { result = result.oriented(.left) }  // .left displays 90° anti-clockwise
            switch mirror {
            case 0: result = result.oriented(.downMirrored)
            case 1: result = result.oriented(.upMirrored)
            default: break
            }
            return result
        }
        for turns in 0..<4 {
            for mirror in [nil, UInt8(0), 1] {
                let orientation = AVIFOrientation.orientation(quarterTurnsAntiClockwise: turns, mirrorMode: mirror)
                #expect(
                    stored.oriented(orientation) == applyTransforms(turns: turns, mirror: mirror),
                    "irot \(turns), imir \(String(describing: mirror))")
            }
        }
        #expect(AVIFOrientation.orientation(quarterTurnsAntiClockwise: 1, mirrorMode: 0) == .leftMirrored)
        #expect(AVIFOrientation.orientation(quarterTurnsAntiClockwise: 0, mirrorMode: 0) == .downMirrored)
    }

    @Test func otherFormatsAreRefused() throws {
        let error = try #require(throws: WebImageError.self) {
            try coder.encode(Image(pixels: ImageFixtures.gradient(width: 4, height: 4)), as: .png, options: .init())
        }
        #expect(error.code == .unsupportedFormat)
        #expect(coder.canEncode(.avif) && !coder.canEncode(.heic))
    }
}
