import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// How the standard coders route ISO-BMFF files by their `ftyp` brands.
@Suite struct AVIFHEIFRoutingTests {
    let coders = ImageCodersManager.standard()

    @Test func avifGoesToLibavifAndReadsItsHeader() throws {
        let pixels = ImageFixtures.gradient(width: 30, height: 20)
        let data = try coders.encode(Image(pixels: pixels), as: .avif, options: ImageEncodingOptions(lossless: true, speed: 10))
        let image = try coders.decode(data)
        #expect(image.format == .avif)
        #expect(image.pixels == pixels)
        let header = try coders.readHeader(data)
        #expect(header.format == .avif && header.pixelSize == PixelSize(width: 30, height: 20))
    }

    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func heicGoesToLibheif() throws {
        let data = try coders.encode(
            Image(pixels: ImageFixtures.gradient(width: 30, height: 20)), as: .heic, options: ImageEncodingOptions(speed: 10))
        #expect(try coders.decode(data).format == .heic)
        #expect(try coders.readHeader(data).pixelSize == PixelSize(width: 30, height: 20))
    }

    /// An AV1 image under the generic `mif1` brand only is HEIF, not AVIF: the HEIF coder decodes
    /// it through libheif's AV1 decoder.
    @Test func genericBrandWithAV1IsDecodedAsHEIF() throws {
        let pixels = ImageFixtures.gradient(width: 30, height: 20)
        var bytes = [UInt8](
            try coders.encode(Image(pixels: pixels), as: .avif, options: ImageEncodingOptions(lossless: true, speed: 10)))
        let ftypSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        for offset in stride(from: 8, to: ftypSize, by: 4) where bytes[offset..<offset + 4].elementsEqual("avif".utf8) {
            bytes.replaceSubrange(offset..<offset + 4, with: Array("mif1".utf8))
        }
        let data = Data(bytes)
        #expect(ImageFormat.detect(in: data) == .heif)
        let image = try coders.decode(data)
        #expect(image.format == .heif)
        #expect(image.pixelSize == pixels.size)
        #expect(ImageFixtures.meanAbsoluteDifference(image.pixels, pixels) < 2)
    }
}
