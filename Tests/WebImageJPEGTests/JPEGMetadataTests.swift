import Foundation
import Testing
import WebImage
import WebImageJPEG
import WebImageTesting

@Suite("JPEG metadata segments")
struct JPEGMetadataTests {
    /// A 64×32 JPEG whose only orientation is XMP's (8: displayed 32×64).
    static func xmpOnly() throws -> Data {
        let plain = try JPEGCoder().encode(Image(pixels: ImageFixtures.gradient(width: 64, height: 32)), as: .jpeg, options: .init())
        return MetadataFixtures.jpeg(plain, exif: nil, xmp: MetadataFixtures.xmp(orientation: 8), iptc: nil)
    }

    @Test("XMP's orientation counts where EXIF states none: decode, header, thumbnail box, incremental decode")
    func xmpOrientation() throws {
        let data = try Self.xmpOnly()
        #expect(try JPEGCoder().decode(data).orientation == .left)
        #expect(try JPEGCoder().readHeader(data).orientation == .left)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 32)  // displayed 16×32: stored 32×16
        #expect(try JPEGCoder().decode(data, options: options).pixelSize == PixelSize(width: 32, height: 16))
        let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        for start in stride(from: 0, to: data.count, by: 100) { try decoder.append(data[start..<min(start + 100, data.count)]) }
        #expect(try decoder.currentImage()?.orientation == .left)
        // EXIF wins over XMP.
        let both = MetadataFixtures.jpeg(
            try JPEGCoder().encode(Image(pixels: ImageFixtures.gradient(width: 8, height: 8)), as: .jpeg, options: .init()),
            exif: MetadataFixtures.exif(orientation: 3), xmp: MetadataFixtures.xmp(orientation: 8), iptc: nil)
        #expect(try JPEGCoder().decode(both).orientation == .down)
    }

    @Test("The three segments are read, and written back where a reader finds them")
    func segments() throws {
        let data = MetadataFixtures.jpeg(
            try Self.xmpOnly(), exif: MetadataFixtures.exif(), xmp: nil, iptc: MetadataFixtures.iptc())
        let metadata = try #require(JPEGCoder().readMetadata(data))
        #expect(metadata.exif == MetadataFixtures.exif())
        #expect(metadata.iptc == MetadataFixtures.iptc())
        #expect(metadata.xmp == MetadataFixtures.xmp(orientation: 8))
        let image = Image(pixels: ImageFixtures.gradient(width: 8, height: 8), metadata: metadata)
        let written = try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodingOptions(metadataPolicy: .keepAll))
        let again = try #require(JPEGCoder().readMetadata(written))
        #expect(again.iptc == MetadataFixtures.iptc())
        #expect(again.exif != nil)
        #expect(try JPEGCoder().decode(written).pixelSize == PixelSize(width: 8, height: 8))
    }
}
