import Foundation
import Testing
import WebImage
import WebImageTesting

@Suite("Image metadata and its policies")
struct ImageMetadataTests {
    private let source = ImageMetadata(exif: MetadataFixtures.exif(), xmp: MetadataFixtures.xmp(), iptc: MetadataFixtures.iptc())

    @Test("The orientation is EXIF's, else XMP's")
    func orientation() {
        #expect(source.orientation == .right)
        #expect(ImageMetadata(xmp: MetadataFixtures.xmp(orientation: 3)).orientation == .down)
        #expect(ImageMetadata(exif: Data("Exif\0\0".utf8) + MetadataFixtures.exif(orientation: 8)).orientation == .left)
    }

    @Test("strip keeps nothing; copyright, keep and keep-all what they say", arguments: MetadataPolicy.allCases)
    func policies(policy: MetadataPolicy) throws {
        let kept = source.written(policy: policy, orientation: .up, pixelSize: PixelSize(width: 32, height: 64))
        guard policy != .strip else {
            #expect(kept == nil)
            return
        }
        let metadata = try #require(kept)
        let exif = try ExifStructure(parsing: [UInt8](try #require(metadata.exif)))
        #expect(exif.string(ExifStructure.Tag.copyright, in: exif.ifd0) == MetadataFixtures.copyright)
        #expect((exif.gps != nil) == (policy == .keepAll))
        let xmp = String(decoding: try #require(metadata.xmp), as: UTF8.self)
        #expect(xmp.contains("GPS") == (policy == .keepAll))
        #expect(xmp.contains(MetadataFixtures.copyright))
        let iptc = try IPTCRecords(parsing: [UInt8](try #require(metadata.iptc)))
        #expect(iptc.datasets.contains { $0.record == 2 && $0.dataset == 116 })
        #expect(iptc.datasets.contains { $0.record == 2 && $0.dataset == 90 } == (policy != .copyright))
        if policy != .copyright {
            #expect(exif.integer(ExifStructure.Tag.orientation, in: exif.ifd0) == 1)
            #expect(exif.integer(ExifStructure.Tag.pixelXDimension, in: exif.exif ?? []) == 32)
            #expect(metadata.orientation == .up)
        }
    }

    @Test("Unparseable blocks are dropped under every policy")
    func unparseable() {
        let broken = ImageMetadata(exif: Data("II*\0\u{FF}\u{FF}\u{FF}\u{7F}".utf8), xmp: Data("<a>".utf8), iptc: Data([0x00]))
        for policy in MetadataPolicy.allCases { #expect(broken.applying(policy) == nil) }
    }

    @Test("A metadata policy other than strip is part of the cache key")
    func cacheKey() {
        #expect(CacheKeys.metadataPolicy("a.jpg", .strip) == "a.jpg")
        #expect(CacheKeys.metadataPolicy("a.jpg", .keepAll) == "a-Metadata(keep-all).jpg")
    }
}
