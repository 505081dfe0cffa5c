import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

/// Issue 26: a PNG's `eXIf` orientation is read (it was ignored), before or after the image data.
@Suite("PNG eXIf orientation")
struct PNGExifOrientationTests {
    /// A little-endian TIFF structure whose one IFD entry is Orientation = `value`.
    static func exif(orientation value: UInt16) -> [UInt8] {
        [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00]  // "II*", IFD at 8, one entry
            + [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(value), 0x00, 0x00, 0x00]  // 274, SHORT, 1, value
            + [0x00, 0x00, 0x00, 0x00]  // no next IFD
    }

    /// A 40×20 RGBA PNG with the `eXIf` chunk before or after IDAT.
    static func png(orientation: UInt16, afterImageData: Bool = false) -> Data {
        let rows = TestPNG.scanlines(width: 40, height: 20, bitDepth: 8, channels: 4) { x, y in [x * 6, y * 12, 80, 255] }
        let exif = TestPNG.chunk("eXIf", exif(orientation: orientation))
        let idat = TestPNG.chunk("IDAT", TestPNG.zlib(rows))
        let body = afterImageData ? [idat, exif] : [exif, idat]
        return TestPNG.file([TestPNG.ihdr(width: 40, height: 20)] + body + [TestPNG.chunk("IEND", [])])
    }

    @Test("the orientation is carried, not applied; the header says it too", arguments: [false, true])
    func orientationIsRead(afterImageData: Bool) throws {
        let data = Self.png(orientation: 6, afterImageData: afterImageData)
        let image = try PNGCoder().decode(data)
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 40, height: 20))
        #expect(image.size == (width: 20, height: 40))
        #expect(try PNGCoder().readHeader(data).orientation == .right)
    }

    @Test("a thumbnail box is in the displayed orientation; encoding applies the orientation once")
    func thumbnailAndEncoding() throws {
        let data = Self.png(orientation: 6)
        let thumbnail = try PNGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 10, height: 20)))
        #expect(thumbnail.pixelSize == PixelSize(width: 20, height: 10), "stored pixels fit the box turned")
        let coders = ImageCodersManager(coders: [PNGCoder()])
        let written = try coders.encode(try PNGCoder().decode(data), as: .png, options: ImageEncodingOptions())
        let upright = try PNGCoder().decode(written)
        #expect(upright.orientation == .up, "the written file has no eXIf: its pixels are upright")
        #expect(upright.pixelSize == PixelSize(width: 20, height: 40))
    }

    @Test("a malformed eXIf is no orientation")
    func malformed() throws {
        let rows = TestPNG.scanlines(width: 4, height: 4, bitDepth: 8, channels: 4) { _, _ in [1, 2, 3, 255] }
        let data = TestPNG.file([
            TestPNG.ihdr(width: 4, height: 4), TestPNG.chunk("eXIf", [0x49, 0x49, 0x2A]),
            TestPNG.chunk("IDAT", TestPNG.zlib(rows)), TestPNG.chunk("IEND", []),
        ])
        #expect(try PNGCoder().decode(data).orientation == .up)
    }
}
