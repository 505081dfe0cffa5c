import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `ImageCodersManager.readHeader` agrees with a full decode for files like the ones users have,
/// made by our encoders, and reads the bombs' headers without decoding them.
@Suite("Header probe")
struct HeaderProbeTests {
    let coders = ImageCodersManager.standard()

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var format: ImageFormat
        var animated: Bool
        var translucent: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "JPEG", format: .jpeg, animated: false, translucent: false),
        Case(name: "PNG opaque", format: .png, animated: false, translucent: false),
        Case(name: "PNG with alpha", format: .png, animated: false, translucent: true),
        Case(name: "APNG", format: .apng, animated: true, translucent: false),
        Case(name: "GIF still", format: .gif, animated: false, translucent: false),
        Case(name: "GIF animated", format: .gif, animated: true, translucent: false),
        Case(name: "WebP lossy", format: .webp, animated: false, translucent: false),
        Case(name: "WebP lossless with alpha", format: .webp, animated: false, translucent: true),
        Case(name: "WebP animated", format: .webp, animated: true, translucent: false),
    ]

    func encoded(_ testCase: Case) throws -> Data {
        let image: Image
        if testCase.animated {
            image = ImageFixtures.animation(frames: 4, duration: 0.07, loopCount: 3)
        } else {
            let pixels =
                testCase.translucent
                ? ImageFixtures.translucentGradient(width: 45, height: 29)
                : ImageFixtures.gradient(width: 45, height: 29)
            image = Image(pixels: pixels)
        }
        let options = ImageEncodingOptions(lossless: testCase.translucent)
        return try coders.encode(image, as: testCase.format, options: options)
    }

    @Test("The header agrees with a full decode", arguments: cases)
    func agreesWithDecode(_ testCase: Case) throws {
        let data = try encoded(testCase)
        let header = try coders.readHeader(data)
        let image = try coders.decode(data)
        #expect(header.format == image.format)
        #expect(header.pixelSize == image.originalPixelSize)
        #expect(header.frameCount == (image.animation?.frameCount ?? 1))
        #expect(header.loopCount == image.animation?.loopCount)
        if let animation = image.animation {
            #expect(header.frameDurations == (0..<animation.frameCount).map { animation.duration(at: $0) })
        } else {
            #expect(header.frameDurations == nil)
        }
        #expect(header.hasAlpha == image.hasAlpha)
        #expect(header.orientation == image.orientation)
        // What a full decode of every frame takes; the image itself holds only its poster until
        // frames are preloaded or played.
        #expect(header.decodedByteCount == image.pixelSize.rgbaByteCount * header.frameCount)
        #expect(image.memoryCost == image.pixels.bytes.count)
    }

    @Test("Every bomb's header is read as declared")
    func bombs() throws {
        let expected: [(Data, PixelSize, Int)] = [
            (DecompressionBombs.pngStrip(), PixelSize(width: 700_000_000, height: 1), 1),
            (DecompressionBombs.webPLossless(), PixelSize(width: 10_000, height: 10_000), 1),
            (DecompressionBombs.truncatedWebP(), PixelSize(width: 10_000, height: 10_000), 1),
            (DecompressionBombs.gifCanvas(), PixelSize(width: 65_535, height: 65_535), 1),
            (DecompressionBombs.jpeg(), PixelSize(width: 65_000, height: 65_000), 1),
            (DecompressionBombs.manyFrameGIF(), PixelSize(width: 500, height: 500), 20_000),
            (DecompressionBombs.manyFrameAPNG(), PixelSize(width: 500, height: 500), 5_000),
        ]
        for (data, size, frames) in expected {
            let header = try coders.readHeader(data)
            #expect(header.pixelSize == size)
            #expect(header.frameCount == frames)
        }
    }

    @Test("Unrecognised and empty bytes are typed errors")
    func errors() throws {
        let garbage = try #require(throws: WebImageError.self) { try coders.readHeader(Data("not an image".utf8)) }
        #expect(garbage.code == .badImageData)
        let empty = try #require(throws: WebImageError.self) { try coders.readHeader(Data()) }
        #expect(empty.code == .badImageData)
        let cut = try #require(throws: WebImageError.self) { try coders.readHeader(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) }
        #expect(cut.code == .badImageData)
    }
}
