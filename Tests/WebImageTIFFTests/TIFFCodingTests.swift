import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageTIFF

@Suite struct TIFFCodingTests {
    let coder = TIFFCoder()

    @Test(arguments: [false, true])
    func roundTripIsExact(translucent: Bool) throws {
        let pixels =
            translucent
            ? ImageFixtures.translucentGradient(width: 37, height: 23)
            : ImageFixtures.gradient(width: 37, height: 23)
        let data = try coder.encode(Image(pixels: pixels), as: .tiff, options: ImageEncodingOptions())
        #expect(ImageFormat.detect(in: data) == .tiff)
        let image = try coder.decode(data)
        #expect(image.format == .tiff)
        #expect(image.pixels == pixels)
        #expect(image.hasAlpha == translucent)
        #expect(image.animation == nil)
    }

    @Test func compressionLevelChangesTheOutputNotThePixels() throws {
        let pixels = ImageFixtures.gradient(width: 64, height: 64)
        let fast = try coder.encode(Image(pixels: pixels), as: .tiff, options: ImageEncodingOptions(compressionLevel: 1))
        let best = try coder.encode(Image(pixels: pixels), as: .tiff, options: ImageEncodingOptions(compressionLevel: 9))
        #expect(fast != best)
        #expect(try coder.decode(fast).pixels == pixels)
        #expect(try coder.decode(best).pixels == pixels)
    }

    @Test func premultipliedOutputIsAsked() throws {
        let pixels = ImageFixtures.translucentGradient(width: 8, height: 8)
        let data = try coder.encode(Image(pixels: pixels), as: .tiff, options: ImageEncodingOptions())
        let image = try coder.decode(data, options: ImageDecodingOptions(alphaMode: .premultiplied))
        #expect(image.pixels == pixels.premultiplied())
    }

    @Test func multiPageFilesArePagesAsFrames() throws {
        let animation = ImageFixtures.animation(frames: 3)
        let data = try coder.encode(animation, as: .tiff, options: ImageEncodingOptions())
        let image = try coder.decode(data)
        let pages = try #require(image.animation)
        #expect(pages.frameCount == 3)
        #expect(pages.loopCount == 0)
        #expect(image.pixels == animation.pixels)
        // Random access, backwards included.
        for index in [2, 0, 1, 2] {
            let frame = try pages.frame(at: index)
            #expect(frame.pixels == (try #require(animation.animation).frame(at: index).pixels), "page \(index)")
            #expect(frame.duration == TIFFPageCursor.pageDuration)
        }
        let header = try coder.readHeader(data)
        #expect(header.frameCount == 3)
        #expect(header.frameDurations == [0.1, 0.1, 0.1])
        #expect(header.loopCount == 0)
        // First page only.
        let first = try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(first.animation == nil)
        #expect(first.pixels == animation.pixels)
        // Encoding the first frame only writes one page.
        let single = try coder.encode(animation, as: .tiff, options: ImageEncodingOptions(firstFrameOnly: true))
        #expect(try coder.readHeader(single).frameCount == 1)
    }

    @Test func aSmallerPageIsFittedAndCentredOnTheCanvas() throws {
        let big = PixelBuffer(width: 20, height: 10, alphaMode: .straight, fill: RGBA8(r: 0, g: 0, b: 255))
        let small = PixelBuffer(width: 5, height: 5, alphaMode: .straight, fill: RGBA8(r: 255, g: 0, b: 0))
        let data = try TIFFEncoder.encode(pageCount: 2, options: ImageEncodingOptions()) { $0 == 0 ? big : small }
        let second = try #require(try coder.decode(data).animation).frame(at: 1).pixels
        #expect(second.size == PixelSize(width: 20, height: 10))
        #expect(second[10, 5] == RGBA8(r: 255, g: 0, b: 0))   // the page, scaled to 10×10 in the middle
        #expect(second[0, 5].a == 0)                          // transparent margins
        #expect(second[19, 5].a == 0)
    }

    @Test func orientationIsCarriedNotApplied() throws {
        let pixels = ImageFixtures.gradient(width: 12, height: 7)
        let upright = try coder.encode(Image(pixels: pixels), as: .tiff, options: ImageEncodingOptions())
        for orientation in ImageOrientation.allCases {
            let data = TIFFTestFiles.settingShortTag(274, to: UInt16(orientation.rawValue), in: upright)
            let image = try coder.decode(data)
            #expect(image.orientation == orientation)
            #expect(image.pixels == pixels, "orientation \(orientation) changed the stored pixels")
            #expect(try coder.readHeader(data).orientation == orientation)
        }
    }

    @Test func thumbnailsAndScaleFactor() throws {
        let data = try coder.encode(
            Image(pixels: ImageFixtures.gradient(width: 64, height: 32)), as: .tiff, options: ImageEncodingOptions())
        var options = ImageDecodingOptions(scaleFactor: 2)
        options.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        let image = try coder.decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 16, height: 8))
        #expect(image.originalPixelSize == PixelSize(width: 64, height: 32))
        #expect(image.scale == 2)
    }

    @Test func sixteenBitGreyGoesThroughLibtiffsRGBAInterface() throws {
        // 2×1, 16-bit samples (little-endian): 0x1234 and 0x12F0.
        let data = TIFFTestFiles.file(
            width: 2, height: 1,
            entries: [TIFFTestFiles.short(258, 16), TIFFTestFiles.short(259, 1), TIFFTestFiles.short(262, 1)],
            pixelData: [0x34, 0x12, 0xF0, 0x12])
        let image = try coder.decode(data)
        #expect(image.pixelSize == PixelSize(width: 2, height: 1))
        // libtiff keeps the high byte of 16-bit grey (as Pillow does): 0x1234 → 0x12, 0x12F0 → 0x12.
        #expect(image.pixels[0, 0] == RGBA8(r: 0x12, g: 0x12, b: 0x12))
        #expect(image.pixels[1, 0] == RGBA8(r: 0x12, g: 0x12, b: 0x12))
    }

    @Test func paletteAndBilevelFilesDecode() throws {
        // Palette: 2 entries (red, green), 8-bit indices. The colour map holds 3 × 256 SHORTs.
        var map = [UInt32](repeating: 0, count: 768)
        map[0] = 0xFFFF  // red[0]
        map[256 + 1] = 0xFFFF  // green[1]
        let palette = TIFFTestFiles.file(
            width: 2, height: 1,
            entries: [
                TIFFTestFiles.short(258, 8), TIFFTestFiles.short(259, 1), TIFFTestFiles.short(262, 3),
                TIFFTestFiles.Entry(tag: 320, type: 3, values: map),
            ],
            pixelData: [0, 1])
        let decoded = try coder.decode(palette).pixels
        #expect(decoded[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(decoded[1, 0] == RGBA8(r: 0, g: 255, b: 0))
        // Bilevel, white is zero: bits 0101 0000 → white, black, white, black.
        let bilevel = TIFFTestFiles.file(
            width: 4, height: 1,
            entries: [TIFFTestFiles.short(258, 1), TIFFTestFiles.short(259, 1), TIFFTestFiles.short(262, 0)],
            pixelData: [0b0101_0000])
        let bits = try coder.decode(bilevel).pixels
        #expect((0..<4).map { bits[$0, 0].r } == [255, 0, 255, 0])
    }

    @Test func managerEncodesOnlyTIFF() throws {
        #expect(coder.canEncode(.tiff))
        #expect(!coder.canEncode(.png))
        let error = try #require(throws: WebImageError.self) {
            try coder.encode(Image(pixels: ImageFixtures.gradient(width: 2, height: 2)), as: .png, options: .init())
        }
        #expect(error.code == .unsupportedFormat)
    }
}
