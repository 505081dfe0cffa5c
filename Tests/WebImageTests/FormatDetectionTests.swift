import Foundation
import Testing
import WebImage

@Suite("Format detection by magic bytes")
struct FormatDetectionTests {
    static func chunk(_ type: String, _ payload: [UInt8] = []) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + Array(type.utf8) + payload + [0, 0, 0, 0]
    }
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test("Each signature maps to its format", arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
        (Array("GIF89a".utf8) + [0, 0], .gif),
        (Array("GIF87a".utf8) + [0, 0], .gif),
        (Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1miaf".utf8), .heif),
        ([0, 0, 0, 0x18] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1miaf".utf8), .avif),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("avifmiaf".utf8), .avif),
        ([0xFF, 0x0A, 0x00], .jpegXL),
        ([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jpegXL),
        (Array("BM".utf8) + [UInt8](repeating: 0, count: 30), .bmp),
        (Array("BM".utf8), .bmp),
        ([0, 0, 0, 0x18] + Array("ftyphevm".utf8) + [0, 0, 0, 0] + Array("mif1hevm".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftyphevs".utf8) + [0, 0, 0, 0] + Array("msf1hevs".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1hevm".utf8), .heic),
        ([0x00, 0x00, 0x01, 0x00, 1, 0], .ico),
        (Array("%PDF-1.7".utf8), .pdf),
        (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
        (Array("  <svg width=\"1\"></svg>".utf8), .svg),
        // SVG sniffing skips the prolog (BOM, declaration, comments, DOCTYPE with an internal subset)
        // and wants `svg` as the root element.
        ([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?><!-- a <b> comment --><svg/>".utf8), .svg),
        (Array("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" [ <!ENTITY e \"<x>\"> ]>\n<svg>".utf8), .svg),
        (Array("<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
        (Array("<html><body><svg width=\"1\"></svg></body></html>".utf8), .undefined),
        (Array("<?xml version=\"1.0\"?><svgfoo/>".utf8), .undefined),
        (Array("<!-- <svg> in a comment only --><html/>".utf8), .undefined),
        (Array("hello world".utf8), .undefined),
        ([], .undefined),
        ([0xFF, 0xD8], .undefined),
    ] as [([UInt8], ImageFormat)])
    func signature(bytes: [UInt8], expected: ImageFormat) {
        #expect(ImageFormat.detect(in: bytes) == expected)
        #expect(ImageFormat.detect(in: Data(bytes)) == expected)
    }

    @Test("A PNG is an APNG only when acTL comes before the first IDAT")
    func apngDetection() {
        let ihdr = Self.chunk("IHDR", [UInt8](repeating: 0, count: 13))
        let actl = Self.chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])
        let idat = Self.chunk("IDAT", [1, 2, 3])
        let iend = Self.chunk("IEND")
        #expect(ImageFormat.detect(in: Self.pngSignature + ihdr + actl + idat + iend) == .apng)
        #expect(ImageFormat.detect(in: Self.pngSignature + ihdr + idat + actl + iend) == .png)
        #expect(ImageFormat.detect(in: Self.pngSignature + ihdr + idat + iend) == .png)
        // A chunk length that runs past the data stops the walk: still a PNG.
        #expect(ImageFormat.detect(in: Self.pngSignature + [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8)) == .png)
        #expect(ImageFormat.isAnimated(Data(Self.pngSignature + ihdr + actl + idat + iend)))
    }

    @Test("Animated WebP is told by the VP8X animation flag")
    func webpAnimation() {
        func vp8x(flags: UInt8) -> Data {
            Data(Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, flags, 0, 0, 0] + [0, 0, 0, 0, 0, 0])
        }
        #expect(ImageFormat.isAnimated(vp8x(flags: 0x02)))
        #expect(!ImageFormat.isAnimated(vp8x(flags: 0x10)))
    }

    @Test("A GIF with two image descriptors is animated, one is not")
    func gifAnimation() {
        let header = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        let image: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]
        #expect(!ImageFormat.isAnimated(Data(header + image + [0x3B])))
        #expect(ImageFormat.isAnimated(Data(header + image + image + [0x3B])))
    }

    @Test("Formats round-trip through their file extensions")
    func fileExtensions() {
        for format in [ImageFormat.jpeg, .png, .gif, .webp, .tiff, .heic, .avif, .bmp] {
            #expect(ImageFormat(fileExtension: format.fileExtension) == format)
        }
        #expect(ImageFormat(fileExtension: "JPEG") == .jpeg)
        #expect(ImageFormat(fileExtension: "txt") == nil)
        #expect(ImageFormat.webp.mimeType == "image/webp")
    }
}
