import Foundation
import Testing
import WebImage
@testable import WebImageJXL
import WebImageTesting

@Suite struct JXLCodingTests {
    let coder = JXLCoder()
    let lossless = ImageEncodingOptions(lossless: true)

    @Test(arguments: [false, true])
    func losslessRoundTripIsExact(translucent: Bool) throws {
        let pixels =
            translucent
            ? ImageFixtures.translucentGradient(width: 37, height: 23)
            : ImageFixtures.gradient(width: 37, height: 23)
        let data = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: lossless)
        #expect(ImageFormat.detect(in: data) == .jpegXL)
        let image = try coder.decode(data)
        #expect(image.format == .jpegXL)
        #expect(image.pixels == pixels)
        #expect(image.hasAlpha == translucent)
        #expect(image.animation == nil)
        let header = try coder.readHeader(data)
        #expect(header.pixelSize == pixels.size)
        #expect(header.hasAlpha == translucent)
        #expect(header.frameCount == 1)
    }

    @Test func lossyIsCloseAndQualityChangesTheSize() throws {
        let pixels = ImageFixtures.gradient(width: 64, height: 64)
        let high = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(quality: 0.9))
        let low = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(quality: 0.2))
        #expect(low.count < high.count)
        let decoded = try coder.decode(high).pixels
        #expect(decoded.size == pixels.size)
        #expect(decoded != pixels)  // lossy
        #expect(ImageFixtures.meanAbsoluteDifference(decoded, pixels) < 2.5)
        #expect(ImageFixtures.meanAbsoluteDifference(try coder.decode(low).pixels, pixels) < 12)
    }

    @Test func lossyKeepsAlpha() throws {
        let pixels = ImageFixtures.translucentGradient(width: 32, height: 32)
        let data = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(quality: 0.9))
        let decoded = try coder.decode(data)
        #expect(decoded.hasAlpha)
        // Alpha is coded losslessly-ish at this quality; colour within a few levels.
        #expect(ImageFixtures.maxAbsoluteDifference(decoded.pixels, pixels) < 40)
    }

    @Test func qualityToDistanceMapping() {
        #expect(abs(JXLCoder.distance(forQuality: 0.9) - 1.0) < 1e-5)
        #expect(abs(JXLCoder.distance(forQuality: 1.0) - 0.1) < 1e-5)
        #expect(abs(JXLCoder.distance(forQuality: 0.5) - 4.6) < 1e-5)
        #expect(abs(JXLCoder.distance(forQuality: 0.3) - 6.4) < 1e-5)
        #expect(abs(JXLCoder.distance(forQuality: 0.2) - (6.4 + 6.25 / 6.25)) < 1e-4)
        #expect(JXLCoder.distance(forQuality: 0) == 15)
        #expect(JXLCoder.distance(forQuality: -3) == 15)
        #expect(abs(JXLCoder.distance(forQuality: 7) - 0.1) < 1e-5)
    }

    /// The frame-duration rule applies to JPEG XL as to GIF, APNG, WebP and AVIF: a 10 ms frame
    /// plays for 100 ms, and the header and the source keep the stored 10 ms beside it.
    @Test func tenMillisecondFramesPlayAsOneHundred() throws {
        let animation = ImageFixtures.animation(frames: 3, duration: 0.01, loopCount: 0)
        let data = try coder.encode(animation, as: .jpegXL, options: lossless)
        let source = try #require(try coder.decode(data).animation)
        #expect(source.frameCount == 3)
        for index in 0..<3 {
            #expect(source.duration(at: index) == FrameDurationRule.replacement)
            #expect(abs(source.storedDuration(at: index) - 0.01) < 1e-9)
            #expect(try source.frame(at: index).duration == FrameDurationRule.replacement)
        }
        let header = try coder.readHeader(data)
        #expect(header.frameDurations == [0.1, 0.1, 0.1])
        #expect(header.storedFrameDurations?.allSatisfy { abs($0 - 0.01) < 1e-9 } == true, "\(header)")
    }

    @Test func animationsRoundTripWithDurationsAndLoops() throws {
        let animation = ImageFixtures.animation(frames: 4, duration: 0.25, loopCount: 3)
        let data = try coder.encode(animation, as: .jpegXL, options: lossless)
        let image = try coder.decode(data)
        let frames = try #require(image.animation)
        #expect(frames.frameCount == 4)
        #expect(frames.loopCount == 3)
        #expect(image.pixels == animation.pixels)
        let source = try #require(animation.animation)
        // Forward, a skip, and backwards (rewind).
        for index in [0, 1, 3, 2, 0, 3] {
            let frame = try frames.frame(at: index)
            #expect(frame.pixels == (try source.frame(at: index).pixels), "frame \(index)")
            #expect(abs(frame.duration - 0.25) < 1e-9)
        }
        let header = try coder.readHeader(data)
        #expect(header.frameCount == 4)
        #expect(header.loopCount == 3)
        #expect(header.frameDurations == [0.25, 0.25, 0.25, 0.25])
        let first = try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(first.animation == nil)
        #expect(first.pixels == animation.pixels)
    }

    @Test func thumbnailsAreResampledFromTheFullDecode() throws {
        let data = try coder.encode(
            Image(pixels: ImageFixtures.gradient(width: 64, height: 32)), as: .jpegXL, options: lossless)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 8))
        #expect(image.originalPixelSize == PixelSize(width: 64, height: 32))
        let animated = try coder.encode(ImageFixtures.animation(frames: 2), as: .jpegXL, options: lossless)
        let small = try coder.decode(animated, options: options)
        #expect(try #require(small.animation).frame(at: 1).pixels.size == small.pixelSize)
    }

    @Test func premultipliedOutputIsAsked() throws {
        let pixels = ImageFixtures.translucentGradient(width: 8, height: 8)
        let data = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: lossless)
        let image = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(image.pixels == pixels.premultiplied())
    }

    @Test func orientationIsCarriedNotApplied() throws {
        let pixels = ImageFixtures.gradient(width: 12, height: 7)
        for orientation in ImageOrientation.allCases {
            let data = try JXLEncoder.encode(pixels, options: lossless, storedOrientation: orientation)
            let image = try coder.decode(data)
            #expect(image.orientation == orientation)
            #expect(image.pixels == pixels, "orientation \(orientation) changed the stored pixels")
            #expect(try coder.readHeader(data).orientation == orientation)
        }
        // A thumbnail box is in the displayed orientation: 12×7 stored, shown 7×12; a 7×6 box
        // gives about 3.5×6 displayed, 6 × 3…4 stored.
        let rotated = try JXLEncoder.encode(pixels, options: lossless, storedOrientation: .right)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 7, height: 6)
        let thumbnail = try coder.decode(rotated, options: options).pixelSize
        #expect(thumbnail.width == 6 && (3...4).contains(thumbnail.height), "\(thumbnail)")
    }
}
