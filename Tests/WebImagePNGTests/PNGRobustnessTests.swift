import WebImageTesting
import Foundation
import Testing
import WebImage
import WebImagePNG

/// Hostile and broken input: typed errors, never a crash, limits checked before allocation.
@Suite struct PNGRobustnessTests {
    func code(of body: () throws -> Image) -> WebImageError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as WebImageError {
            return error.code
        } catch {
            return WebImageError.Code(rawValue: "untyped")
        }
    }

    @Test func headerOverThePixelLimitIsRefusedAsTooLarge() {
        // 20000×20000 RGBA would need 1.6 GB; the file is a few dozen bytes.
        let data = TestPNG.file([
            TestPNG.ihdr(width: 20000, height: 20000), TestPNG.chunk("IDAT", TestPNG.zlib([0, 0, 0, 0, 0])),
            TestPNG.chunk("IEND", []),
        ])
        #expect(data.count < 100)
        #expect(code { try PNGCoder().decode(data) } == .tooLarge)
    }

    @Test func customPixelLimit() throws {
        let data = TestPNG.rgba(width: 10, height: 10) { _, _ in [1, 2, 3, 255] }
        var options = ImageDecodingOptions()
        options.maxPixelCount = 99
        #expect(code { try PNGCoder().decode(data, options: options) } == .tooLarge)
        options.maxPixelCount = 100
        #expect(try PNGCoder().decode(data, options: options).pixelSize == PixelSize(width: 10, height: 10))
    }

    @Test func truncatedFilesAreBadImageData() {
        let data = TestPNG.rgba(width: 40, height: 30) { x, y in [x, y, x ^ y, 255] }
        // Every cut before the end of the image data.
        for length in stride(from: 0, to: data.count - 12, by: 97) {
            #expect(code { try PNGCoder().decode(data.prefix(length)) } == .badImageData, "cut at \(length)")
        }
    }

    @Test func garbageAfterTheSignatureIsBadImageData() {
        var generator = SplitMix(seed: 7)
        for _ in 0..<20 {
            let junk = (0..<200).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(code { try PNGCoder().decode(Data(TestPNG.signature + junk)) } == .badImageData)
        }
    }

    @Test func corruptImageDataIsBadImageData() {
        var zlib = TestPNG.zlib([UInt8](repeating: 0, count: 8 * 17))
        zlib[0] = 0x12  // not a zlib header
        let data = TestPNG.file([TestPNG.ihdr(width: 4, height: 8, colorType: 0), TestPNG.chunk("IDAT", zlib), TestPNG.chunk("IEND", [])])
        #expect(code { try PNGCoder().decode(data) } == .badImageData)
    }

    @Test func badCriticalChunkCRCIsBadImageData() {
        var bytes = [UInt8](TestPNG.rgba(width: 2, height: 2) { _, _ in [0, 0, 0, 255] })
        bytes[29] ^= 0xFF  // IHDR's CRC
        #expect(code { try PNGCoder().decode(Data(bytes)) } == .badImageData)
    }

    @Test func badAncillaryChunkCRCIsBadImageData() {
        var text = TestPNG.chunk("tEXt", Array("Comment\u{0}hello".utf8))
        text[text.count - 1] ^= 0x55
        let image = TestPNG.solid(width: 2, height: 2, [1, 2, 3, 255])
        let data = TestPNG.file([TestPNG.ihdr(width: 2, height: 2), text, TestPNG.chunk("IDAT", image), TestPNG.chunk("IEND", [])])
        #expect(code { try PNGCoder().decode(data) } == .badImageData)
    }

    @Test func notPNGIsRefused() {
        #expect(!PNGCoder().canDecode(Data()))
        #expect(!PNGCoder().canDecode(Data([0xFF, 0xD8, 0xFF])))
        #expect(code { try PNGCoder().decode(Data("GIF89a".utf8)) } == .badImageData)
        #expect(code { try PNGCoder().decode(Data(TestPNG.signature)) } == .badImageData)
    }

    @Test func zeroSizedHeaderIsBadImageData() {
        let data = TestPNG.file([TestPNG.ihdr(width: 0, height: 5), TestPNG.chunk("IEND", [])])
        #expect(code { try PNGCoder().decode(data) } == .badImageData)
    }
}

/// A tiny deterministic generator for fuzz-like inputs.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
