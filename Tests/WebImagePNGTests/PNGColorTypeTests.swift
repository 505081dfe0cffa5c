import WebImageTesting
import Foundation
import Testing
import WebImage
import WebImagePNG

/// Every colour type and bit depth, decoded to straight RGBA8, from hand-built files.
@Suite struct PNGColorTypeTests {
    let straight = ImageDecodingOptions(alphaMode: .straight)

    func decode(_ data: Data) throws -> PixelBuffer {
        try PNGCoder().decode(data, options: straight).pixels
    }

    func png(
        width: Int = 5, height: Int = 3, bitDepth: Int, colorType: Int, channels: Int, interlaced: Bool = false,
        extra: [[UInt8]] = [], samples: (Int, Int) -> [Int]
    ) -> Data {
        let raw = TestPNG.scanlines(
            width: width, height: height, bitDepth: bitDepth, channels: channels, interlaced: interlaced, samples: samples)
        return TestPNG.file(
            [TestPNG.ihdr(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced)]
                + extra + [TestPNG.chunk("IDAT", TestPNG.zlib(raw)), TestPNG.chunk("IEND", [])])
    }

    @Test(arguments: [1, 2, 4, 8])
    func greyLowBitDepthsScaleToEightBits(bitDepth: Int) throws {
        let maximum = (1 << bitDepth) - 1
        let value = { (x: Int, y: Int) in (x + y * 5) % (maximum + 1) }
        let pixels = try decode(png(bitDepth: bitDepth, colorType: 0, channels: 1) { x, y in [value(x, y)] })
        for y in 0..<3 {
            for x in 0..<5 {
                let grey = UInt8(value(x, y) * 255 / maximum)
                #expect(pixels[x, y] == RGBA8(r: grey, g: grey, b: grey, a: 255))
            }
        }
    }

    @Test func grey16KeepsTheHighByte() throws {
        let pixels = try decode(png(bitDepth: 16, colorType: 0, channels: 1) { x, _ in [x * 0x3311 + 0xFF] })
        for x in 0..<5 {
            let high = UInt8((x * 0x3311 + 0xFF) >> 8)
            #expect(pixels[x, 0] == RGBA8(r: high, g: high, b: high, a: 255))
        }
    }

    @Test func greyAlpha8And16() throws {
        let eight = try decode(png(bitDepth: 8, colorType: 4, channels: 2) { x, y in [x * 40, y * 100] })
        #expect(eight[2, 1] == RGBA8(r: 80, g: 80, b: 80, a: 100))
        let sixteen = try decode(png(bitDepth: 16, colorType: 4, channels: 2) { x, y in [x * 0x2000 + 0x80, 0xFFFF - y * 0x100] })
        #expect(sixteen[3, 2] == RGBA8(r: 0x60, g: 0x60, b: 0x60, a: 0xFD))
    }

    @Test func rgb8AndRgb16() throws {
        let eight = try decode(png(bitDepth: 8, colorType: 2, channels: 3) { x, y in [x, y, 200] })
        #expect(eight[4, 2] == RGBA8(r: 4, g: 2, b: 200, a: 255))
        let sixteen = try decode(png(bitDepth: 16, colorType: 2, channels: 3) { x, y in [x << 8 | 0xFF, y << 8, 0xABCD] })
        #expect(sixteen[4, 2] == RGBA8(r: 4, g: 2, b: 0xAB, a: 255))
    }

    @Test func rgba16() throws {
        let pixels = try decode(png(bitDepth: 16, colorType: 6, channels: 4) { x, y in [0x1234, x << 8, y << 8, 0x8000] })
        #expect(pixels[1, 2] == RGBA8(r: 0x12, g: 1, b: 2, a: 0x80))
    }

    @Test(arguments: [1, 2, 4, 8])
    func paletteWithTransparency(bitDepth: Int) throws {
        let plte = TestPNG.chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])
        let trns = TestPNG.chunk("tRNS", [0, 128])  // entries 2 and 3 stay opaque
        let count = bitDepth == 1 ? 2 : 4
        let data = png(bitDepth: bitDepth, colorType: 3, channels: 1, extra: [plte, trns]) { x, y in [(x + y) % count] }
        let pixels = try decode(data)
        #expect(pixels[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 0))
        #expect(pixels[1, 0] == RGBA8(r: 0, g: 255, b: 0, a: 128))
        if count == 4 {
            #expect(pixels[2, 0] == RGBA8(r: 0, g: 0, b: 255, a: 255))
            #expect(pixels[3, 0] == RGBA8(r: 9, g: 9, b: 9, a: 255))
        }
        #expect(try PNGCoder().decode(data).hasAlpha)
    }

    @Test func lowBitGreyTransparencyKeyIsScaledWithTheSamples() throws {
        // A 2-bit key of 3 (white) makes every white pixel transparent (the spec reading; see the
        // corpus note on rgba8_sha256_spec).
        let trns = TestPNG.chunk("tRNS", TestPNG.be16(3))
        let pixels = try decode(png(bitDepth: 2, colorType: 0, channels: 1, extra: [trns]) { x, _ in [x % 4] })
        #expect(pixels[3, 0].a == 0)
        #expect(pixels[2, 0] == RGBA8(r: 170, g: 170, b: 170, a: 255))
    }

    @Test func sixteenBitTransparencyKeyComparesAllSixteenBits() throws {
        let trns = TestPNG.chunk("tRNS", TestPNG.be16(0x1234) + TestPNG.be16(0) + TestPNG.be16(0))
        let pixels = try decode(png(bitDepth: 16, colorType: 2, channels: 3, extra: [trns]) { x, _ in [0x1234 + x, 0, 0] })
        #expect(pixels[0, 0].a == 0)
        #expect(pixels[1, 0] == RGBA8(r: 0x12, g: 0, b: 0, a: 255))
    }

    @Test(arguments: [(8, 6, 4), (8, 2, 3), (2, 0, 1), (16, 6, 4)])
    func adam7MatchesTheNonInterlacedImage(bitDepth: Int, colorType: Int, channels: Int) throws {
        let maximum = (1 << bitDepth) - 1
        let samples = { (x: Int, y: Int) in (0..<channels).map { c in (x * 37 + y * 11 + c * 101) % (maximum + 1) } }
        let plain = try decode(png(width: 13, height: 11, bitDepth: bitDepth, colorType: colorType, channels: channels, samples: samples))
        let interlaced = try decode(
            png(width: 13, height: 11, bitDepth: bitDepth, colorType: colorType, channels: channels, interlaced: true, samples: samples))
        #expect(plain == interlaced)
        #expect(plain.size == PixelSize(width: 13, height: 11))
    }

    @Test func tinyInterlacedImagesWithEmptyPasses() throws {
        for (width, height) in [(1, 1), (2, 1), (1, 3), (3, 2)] {
            let data = TestPNG.rgba(width: width, height: height, interlaced: true) { x, y in [x * 50, y * 50, 7, 255] }
            let pixels = try decode(data)
            #expect(pixels[width - 1, height - 1] == RGBA8(r: UInt8((width - 1) * 50), g: UInt8((height - 1) * 50), b: 7))
        }
    }

    @Test func defaultDecodeIsStraightAndPremultipliedOnRequest() throws {
        let data = png(bitDepth: 8, colorType: 6, channels: 4) { _, _ in [200, 100, 50, 128] }
        let image = try PNGCoder().decode(data)
        #expect(image.pixels.alphaMode == .straight)
        #expect(image.pixels[0, 0] == RGBA8(r: 200, g: 100, b: 50, a: 128))
        let premultiplied = try PNGCoder().decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(premultiplied.pixels.alphaMode == .premultiplied)
        #expect(premultiplied.pixels[0, 0] == RGBA8(r: 200, g: 100, b: 50, a: 128).premultipliedForTest)
    }
}

extension RGBA8 {
    var premultipliedForTest: RGBA8 {
        var buffer = PixelBuffer(width: 1, height: 1, alphaMode: .straight)
        buffer[0, 0] = self
        return buffer.premultiplied()[0, 0]
    }
}
