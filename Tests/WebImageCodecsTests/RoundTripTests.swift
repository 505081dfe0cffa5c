import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// Every encoder's output decodes back through our decoders and, when installed, through an
/// independent decoder (Debian's djpeg / dwebp / pngtopam / giftopnm; Pillow for animations).
@Suite("Encoder round trips")
struct RoundTripTests {
    let coders = ImageCodersManager.standard()

    struct Case: Sendable, CustomTestStringConvertible {
        var format: ImageFormat
        var options: ImageEncodingOptions
        var translucent: Bool
        /// Largest mean absolute difference per channel allowed after the round trip.
        var tolerance: Double
        var testDescription: String { "\(format)\(options.lossless ? " lossless" : "")\(translucent ? " with alpha" : "")" }
    }

    static let cases: [Case] = [
        Case(format: .jpeg, options: .init(quality: 0.9), translucent: false, tolerance: 2.5),
        Case(format: .png, options: .init(), translucent: false, tolerance: 0),
        Case(format: .png, options: .init(), translucent: true, tolerance: 0),
        Case(format: .webp, options: .init(quality: 0.9), translucent: false, tolerance: 3),
        Case(format: .webp, options: .init(quality: 0.9), translucent: true, tolerance: 4),
        Case(format: .webp, options: .init(lossless: true), translucent: true, tolerance: 0),
        Case(format: .gif, options: .init(), translucent: false, tolerance: 6),
    ]

    @Test("Still images decode back with the same size and near-identical pixels", arguments: cases)
    func still(_ testCase: Case) throws {
        let source =
            testCase.translucent
            ? ImageFixtures.translucentGradient(width: 67, height: 41, alphaMode: .straight)
            : ImageFixtures.gradient(width: 67, height: 41, alphaMode: .straight)
        let data = try coders.encode(Image(pixels: source), as: testCase.format, options: testCase.options)
        #expect(ImageFormat.detect(in: data) == testCase.format)

        let ours = try coders.decode(data, options: ImageDecodingOptions(alphaMode: .straight))
        #expect(ours.pixelSize == source.size)
        #expect(ours.format == testCase.format)
        let ourDifference = ImageFixtures.meanAbsoluteDifference(ours.pixels.zeroingTransparent(), source.zeroingTransparent())
        #expect(ourDifference <= testCase.tolerance, "our decoder: MAD \(ourDifference)")

        let theirs = try ExternalDecoder.decode(data, format: testCase.format)
        // scripts/test.sh installs the Debian decoders, so in CI the independent check always runs.
        #expect(theirs != nil || ProcessInfo.processInfo.environment["CI"] == nil, "no independent \(testCase.format) decoder installed")
        if let theirs {
            #expect(theirs.size == source.size)
            // giftopnm writes no alpha and pngtopam ignores some tRNS forms: compare colour where opaque.
            let difference = ImageFixtures.meanAbsoluteDifference(theirs.zeroingTransparent(), ours.pixels.zeroingTransparent())
            #expect(difference <= 1.0, "independent decoder differs from ours: MAD \(difference)")
        }
    }

    @Test("Animations decode back with their frames, durations and loop count", arguments: [ImageFormat.gif, .apng, .webp])
    func animated(_ format: ImageFormat) throws {
        let source = ImageFixtures.animation(frames: 4, duration: 0.2, loopCount: 3)
        let data = try coders.encode(source, as: format, options: .init(quality: 1, lossless: true))
        let decoded = try coders.decode(data, options: ImageDecodingOptions(alphaMode: .straight))
        let animation = try #require(decoded.animation)
        #expect(animation.frameCount == 4)
        #expect(animation.loopCount == 3)
        for index in 0..<4 {
            #expect(abs(animation.duration(at: index) - 0.2) < 0.001)
            let expected = ImageFixtures.movingSquare(index: index).unpremultiplied()
            let frame = try animation.frame(at: index).pixels
            #expect(ImageFixtures.maxAbsoluteDifference(frame, expected) <= 2, "frame \(index)")
        }
        if let pillow = ExternalDecoder.pillowSummary(data) {
            #expect(pillow.width == 32 && pillow.height == 32)
            #expect(pillow.frames == 4)
        }
        // First frame only: one frame, no animation.
        let still = try coders.encode(source, as: format, options: .init(firstFrameOnly: true))
        #expect(try coders.decode(still).animation == nil || coders.decode(still).animation?.frameCount == 1)
    }

    @Test("A JPEG of an image with alpha is flattened over the background colour")
    func jpegBackground() throws {
        let clear = PixelBuffer(width: 16, height: 16, alphaMode: .straight, fill: RGBA8(r: 0, g: 0, b: 0, a: 0))
        var options = ImageEncodingOptions()
        options.backgroundColor = RGBA8(r: 0, g: 128, b: 255)
        let data = try coders.encode(Image(pixels: clear), as: .jpeg, options: options)
        let decoded = try coders.decode(data)
        let centre = decoded.pixels[8, 8]
        #expect(abs(Int(centre.r) - 0) <= 3 && abs(Int(centre.g) - 128) <= 3 && abs(Int(centre.b) - 255) <= 3)
    }

    @Test("maxFileSize is honoured by searching the quality", arguments: [ImageFormat.jpeg, .webp])
    func maxFileSize(_ format: ImageFormat) throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 256, height: 256))
        let unconstrained = try coders.encode(image, as: format, options: .init(quality: 1))
        let limit = unconstrained.count / 3
        let data = try coders.encode(image, as: format, options: .init(quality: 1, maxFileSize: limit))
        #expect(data.count <= limit)
        #expect(try coders.decode(data).pixelSize == image.pixelSize)
    }

    @Test("EXIF orientation is applied when encoding, since encoders write no EXIF")
    func orientationOnEncode() throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 40, height: 20), orientation: .right)
        let data = try coders.encode(image, as: .png, options: .init())
        let decoded = try coders.decode(data)
        #expect(decoded.pixelSize == PixelSize(width: 20, height: 40))
        #expect(decoded.orientation == .up)
    }
}

extension PixelBuffer {
    /// Straight alpha, with the colour of fully transparent pixels set to 0 (not defined by any format).
    func zeroingTransparent() -> PixelBuffer {
        var copy = unpremultiplied()
        for i in stride(from: 0, to: copy.bytes.count, by: 4) where copy.bytes[i + 3] == 0 {
            copy.bytes[i] = 0
            copy.bytes[i + 1] = 0
            copy.bytes[i + 2] = 0
        }
        return copy
    }
}
