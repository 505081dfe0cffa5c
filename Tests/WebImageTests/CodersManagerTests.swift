import Foundation
import Testing
import WebImage
import WebImageTesting

/// A coder test double: claims data starting with its tag byte; encodes to a byte count that
/// grows with quality and pixel count, so the encoding limits' searches can be observed.
struct TaggedCoder: ImageCoding {
    let name: String
    let tag: UInt8
    func canDecode(_ data: Data) -> Bool { data.first == tag }
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        Image(pixels: PixelBuffer(width: 1, height: 1, alphaMode: options.alphaMode, fill: RGBA8(r: tag, g: 0, b: 0)))
    }
    func canEncode(_ format: ImageFormat) -> Bool { format == .jpeg }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        Data(repeating: tag, count: Int(Double(image.pixelSize.pixelCount) * (0.1 + options.quality)))
    }
}

@Suite("Coders manager and encoding limits")
struct CodersManagerTests {
    @Test("Coders are asked in reverse order of registration: the last added wins")
    func lastAddedWins() throws {
        let manager = ImageCodersManager(coders: [TaggedCoder(name: "a", tag: 1)])
        #expect(try manager.decode(Data([1])).pixels[0, 0].r == 1)
        manager.addCoder(TaggedCoder(name: "b", tag: 1))
        manager.addCoder(TaggedCoder(name: "c", tag: 2))
        #expect(manager.coders.map(\.name) == ["a", "b", "c"])
        // "b" and "a" both claim tag 1; b was added later.
        let forced = try manager.decode(Data([1]), options: .init(), using: TaggedCoder(name: "x", tag: 9))
        #expect(forced.pixels[0, 0].r == 9)
        manager.removeCoder(named: "b")
        #expect(manager.coders.map(\.name) == ["a", "c"])
    }

    @Test("Unknown data and unsupported formats give typed errors")
    func typedErrors() {
        let manager = ImageCodersManager(coders: [TaggedCoder(name: "a", tag: 1)])
        let empty = #expect(throws: WebImageError.self) { try manager.decode(Data()) }
        #expect(empty?.code == .badImageData)
        let garbage = #expect(throws: WebImageError.self) { try manager.decode(Data("hello".utf8)) }
        #expect(garbage?.code == .badImageData)
        let gif = #expect(throws: WebImageError.self) { try manager.decode(Data("GIF89a....".utf8)) }
        #expect(gif?.code == .unsupportedFormat)
        let encode = #expect(throws: WebImageError.self) {
            try manager.encode(Image(pixels: ImageFixtures.gradient(width: 2, height: 2)), as: .png, options: .init())
        }
        #expect(encode?.code == .unsupportedFormat)
    }

    @Test("maxPixelSize shrinks before encoding; maxFileSize searches quality, then size")
    func encodingLimits() throws {
        let manager = ImageCodersManager(coders: [TaggedCoder(name: "a", tag: 1)])
        let image = Image(pixels: ImageFixtures.gradient(width: 100, height: 100))
        let full = try manager.encode(image, as: .jpeg, options: .init(quality: 1))
        #expect(full.count == 11000)
        let boxed = try manager.encode(image, as: .jpeg, options: .init(quality: 1, maxPixelSize: PixelSize(width: 50, height: 50)))
        #expect(boxed.count == 2750)
        let qualitySearch = try manager.encode(image, as: .jpeg, options: .init(quality: 1, maxFileSize: 6000))
        #expect(qualitySearch.count <= 6000)
        #expect(qualitySearch.count > 5000)  // the largest quality that fits, not the lowest
        let shrunk = try manager.encode(image, as: .jpeg, options: .init(quality: 1, maxFileSize: 500))
        #expect(shrunk.count <= 500)
    }

    @Test("Orientation is applied before encoding")
    func orientationApplied() {
        let image = Image(pixels: ImageFixtures.gradient(width: 30, height: 10), orientation: .right)
        let upright = ImageCodersManager.Encoding.oriented(image)
        #expect(upright.pixelSize == PixelSize(width: 10, height: 30))
        #expect(upright.orientation == .up)
    }
}
