import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageJPEG

@Suite("JPEG encoding")
struct JPEGEncodingTests {
    let coder = JPEGCoder()

    @Test("round trips keep size and content", arguments: [(1, 1), (17, 9), (9, 17), (64, 48), (333, 20)])
    func roundTrip(width: Int, height: Int) throws {
        let original = ImageFixtures.gradient(width: width, height: height, alphaMode: .straight)
        let data = try coder.encode(Image(pixels: original), as: .jpeg, options: ImageEncodingOptions(quality: 0.95))
        #expect(ImageFormat.detect(in: data) == .jpeg)
        let decoded = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .straight))
        #expect(decoded.pixelSize == PixelSize(width: width, height: height))
        #expect(decoded.pixels.isOpaque)
        #expect(ImageFixtures.meanAbsoluteDifference(original, decoded.pixels) < 3)
    }

    @Test("quality changes the size and the error")
    func quality() throws {
        let original = ImageFixtures.gradient(width: 96, height: 64, alphaMode: .straight)
        var sizes: [Int] = []
        var errors: [Double] = []
        for quality in [0.1, 0.5, 1.0] {
            let data = try coder.encode(Image(pixels: original), as: .jpeg, options: ImageEncodingOptions(quality: quality))
            sizes.append(data.count)
            let decoded = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .straight))
            errors.append(ImageFixtures.meanAbsoluteDifference(original, decoded.pixels))
        }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2])
        #expect(errors[0] > errors[2])
        // Quality 0 is clamped to libjpeg's lowest, 1, and still encodes.
        let lowest = try coder.encode(Image(pixels: original), as: .jpeg, options: ImageEncodingOptions(quality: 0))
        #expect(lowest.count <= sizes[0])
    }

    @Test("transparent pixels are flattened over the background colour")
    func flattensAlpha() throws {
        let translucent = ImageFixtures.translucentGradient(width: 64, height: 16)
        for background in [RGBA8.white, RGBA8.black, RGBA8(r: 0, g: 200, b: 0)] {
            let options = ImageEncodingOptions(quality: 1, backgroundColor: background)
            let data = try coder.encode(Image(pixels: translucent), as: .jpeg, options: options)
            let decoded = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .straight))
            #expect(decoded.pixels.isOpaque)
            let edge = decoded.pixels[63, 8]  // alpha 0 in the source
            #expect(abs(Int(edge.r) - Int(background.r)) <= 6)
            #expect(abs(Int(edge.g) - Int(background.g)) <= 6)
            #expect(abs(Int(edge.b) - Int(background.b)) <= 6)
        }
    }

    @Test("animated images encode their first frame")
    func animatedFirstFrame() throws {
        let animation = ImageFixtures.animation(frames: 3)
        let data = try coder.encode(animation, as: .jpeg, options: ImageEncodingOptions(quality: 1))
        let decoded = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .straight))
        #expect(decoded.pixelSize == PixelSize(width: 32, height: 32))
        #expect(decoded.animation == nil)
        // Frame 0 has its red square in the top-left corner.
        let corner = decoded.pixels[2, 2]
        let elsewhere = decoded.pixels[24, 24]
        #expect(corner.r > 200 && corner.b < 60)
        #expect(elsewhere.b > 200 && elsewhere.r < 60)
    }

    @Test("other formats and empty images are refused")
    func refusals() throws {
        let image = Image(pixels: ImageFixtures.gradient(width: 4, height: 4))
        let wrongFormat = try #require(throws: WebImageError.self) {
            try coder.encode(image, as: .png, options: ImageEncodingOptions())
        }
        #expect(wrongFormat.code == .unsupportedFormat)
        let empty = Image(pixels: PixelBuffer(width: 0, height: 0, alphaMode: .premultiplied))
        let emptyError = try #require(throws: WebImageError.self) {
            try coder.encode(empty, as: .jpeg, options: ImageEncodingOptions())
        }
        #expect(emptyError.code == .encodingFailed)
    }

    @Test("works inside the coders manager and its encoding limits")
    func throughManager() throws {
        let manager = ImageCodersManager(coders: [coder])
        let image = Image(pixels: ImageFixtures.gradient(width: 120, height: 80))
        let data = try manager.encode(image, as: .jpeg, options: ImageEncodingOptions(maxPixelSize: PixelSize(width: 60, height: 60)))
        let decoded = try manager.decode(data, options: ImageDecodingOptions())
        #expect(decoded.pixelSize == PixelSize(width: 60, height: 40))
        #expect(decoded.format == .jpeg)
    }
}
