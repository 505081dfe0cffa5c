import Foundation
import Testing
import WebImage
import WebImageTesting

/// A coder double that reads headers: the tag byte is the frame count.
struct HeaderTaggedCoder: ImageCoding, ImageHeaderReading {
    let name: String
    let tag: UInt8
    func canDecode(_ data: Data) -> Bool { data.first == tag }
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        Image(pixels: PixelBuffer(width: 1, height: 1, alphaMode: options.alphaMode))
    }
    func canEncode(_ format: ImageFormat) -> Bool { false }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data { Data() }
    func readHeader(_ data: Data) throws -> ImageHeader {
        ImageHeader(format: .gif, pixelSize: PixelSize(width: 2, height: 3), frameCount: Int(tag))
    }
}

@Suite("Animation budget and header reading")
struct AnimationBudgetAndHeaderTests {
    @Test("The default budget is one billion pixels and refuses beyond it, overflow included")
    func budget() throws {
        let options = ImageDecodingOptions()
        #expect(options.maxAnimationPixelCount == 1_000_000_000)
        try options.checkAnimationBudget(frameCount: 4_000, canvasSize: PixelSize(width: 500, height: 500))
        let error = try #require(throws: WebImageError.self) {
            try options.checkAnimationBudget(frameCount: 4_001, canvasSize: PixelSize(width: 500, height: 500))
        }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("4001 frames of 500×500"), "\(error.message)")
        #expect(throws: WebImageError.self) {
            try options.checkAnimationBudget(frameCount: .max, canvasSize: PixelSize(width: .max, height: 2))
        }
        #expect(options.maxAnimationFrameCount(framePixelCount: 250_000) == 4_000)
        #expect(options.maxAnimationFrameCount(framePixelCount: .max) == 1)
    }

    @Test("First-frame-only decoding and single frames are never over the budget")
    func budgetExemptions() throws {
        var options = ImageDecodingOptions(maxAnimationPixelCount: 10)
        try options.checkAnimationBudget(frameCount: 1, canvasSize: PixelSize(width: 100, height: 100))
        options.firstFrameOnly = true
        try options.checkAnimationBudget(frameCount: 1_000, canvasSize: PixelSize(width: 100, height: 100))
    }

    @Test("The manager reads headers with the last registered coder that recognises the bytes")
    func managerReadsHeaders() throws {
        let manager = ImageCodersManager(coders: [HeaderTaggedCoder(name: "a", tag: 7), TaggedCoder(name: "b", tag: 8)])
        #expect(try manager.readHeader(Data([7])).frameCount == 7)
        // A recognising coder that cannot read headers: unsupportedFormat, not a decode.
        let unsupported = try #require(throws: WebImageError.self) { try manager.readHeader(Data([8])) }
        #expect(unsupported.code == .unsupportedFormat)
        let unknown = try #require(throws: WebImageError.self) { try manager.readHeader(Data([9])) }
        #expect(unknown.code == .badImageData)
        let header = try manager.readHeader(Data([7]))
        #expect(header.decodedByteCount == 2 * 3 * 4 * 7)
        #expect(header.isAnimated)
    }
}
