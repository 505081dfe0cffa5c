import Foundation
import Testing
import WebImage
import WebImageTesting

@Suite("EXIF structure: read, edit, write")
struct ExifStructureTests {
    @Test("A hand-written structure reads into its directories, in either byte order", arguments: [false, true])
    func reads(bigEndian: Bool) throws {
        let exif = try ExifStructure(parsing: [UInt8](MetadataFixtures.exif(bigEndian: bigEndian)))
        #expect(exif.bigEndian == bigEndian)
        #expect(exif.integer(ExifStructure.Tag.orientation, in: exif.ifd0) == 6)
        #expect(exif.string(ExifStructure.Tag.copyright, in: exif.ifd0) == MetadataFixtures.copyright)
        #expect(exif.string(ExifStructure.Tag.artist, in: exif.ifd0) == MetadataFixtures.artist)
        #expect(exif.integer(ExifStructure.Tag.pixelXDimension, in: exif.exif ?? []) == 64)
        #expect(exif.gps?.count == 3)
        #expect(!exif.ifd0.contains { $0.tag == ExifStructure.Tag.exifPointer || $0.tag == ExifStructure.Tag.gpsPointer })
    }

    @Test("Written and read again, every entry survives", arguments: [false, true])
    func roundTrip(bigEndian: Bool) throws {
        let exif = try ExifStructure(parsing: [UInt8](MetadataFixtures.exif(bigEndian: bigEndian)))
        let again = try ExifStructure(parsing: exif.serialized())
        func sorted(_ entries: [ExifStructure.Entry]?) -> [ExifStructure.Entry]? { entries?.sorted { $0.tag < $1.tag } }
        #expect(sorted(again.ifd0) == sorted(exif.ifd0))
        #expect(sorted(again.exif) == sorted(exif.exif))
        #expect(sorted(again.gps) == sorted(exif.gps))
        // The library's orientation reader agrees with the structure it wrote.
        #expect(ExifOrientationReader.orientation(inTIFF: exif.serialized()) == .right)
    }

    @Test("Each policy keeps what it says of the directories")
    func policies() throws {
        let source = try ExifStructure(parsing: [UInt8](MetadataFixtures.exif()))
        var keep = source
        keep.apply(.keep)
        #expect(keep.gps == nil)
        #expect(keep.exif != nil)
        #expect(keep.string(ExifStructure.Tag.copyright, in: keep.ifd0) == MetadataFixtures.copyright)
        var copyright = source
        copyright.apply(.copyright)
        #expect(Set(copyright.ifd0.map(\.tag)) == [ExifStructure.Tag.copyright, ExifStructure.Tag.artist])
        #expect(copyright.exif == nil && copyright.gps == nil)
        var all = source
        all.apply(.keepAll)
        #expect(all == source)
        var strip = source
        strip.apply(.strip)
        #expect(strip.isEmpty)
    }

    @Test("Orientation and dimensions are rewritten, never added where absent")
    func orientationAndSize() throws {
        var exif = try ExifStructure(parsing: [UInt8](MetadataFixtures.exif()))
        exif.setOrientation(.up)
        exif.setPixelSize(PixelSize(width: 32, height: 64))
        let written = try ExifStructure(parsing: exif.serialized())
        #expect(written.integer(ExifStructure.Tag.orientation, in: written.ifd0) == 1)
        #expect(written.integer(ExifStructure.Tag.pixelXDimension, in: written.exif ?? []) == 32)
        #expect(written.integer(ExifStructure.Tag.pixelYDimension, in: written.exif ?? []) == 64)
        var bare = ExifStructure(bigEndian: false, ifd0: [])
        bare.setOrientation(.up)
        bare.setPixelSize(PixelSize(width: 1, height: 1))
        #expect(bare.isEmpty)
        bare.setOrientation(.left)
        #expect(bare.integer(ExifStructure.Tag.orientation, in: bare.ifd0) == 8)
    }

    @Test("Hostile structures are typed errors or dropped entries, never a crash")
    func hostile() throws {
        let valid = [UInt8](MetadataFixtures.exif())
        #expect(throws: WebImageError.self) { try ExifStructure(parsing: []) }
        #expect(throws: WebImageError.self) { try ExifStructure(parsing: Array("XX*\0\0\0\0\u{8}".utf8)) }
        // IFD0 pointing past the end.
        var pastEnd = valid
        pastEnd[4] = 0xF0
        pastEnd[5] = 0xFF
        #expect(throws: WebImageError.self) { try ExifStructure(parsing: pastEnd) }
        // Every truncation: an error or a smaller structure.
        for length in stride(from: 0, to: valid.count, by: 3) {
            _ = try? ExifStructure(parsing: Array(valid.prefix(length)))
        }
        // A value count that overflows is dropped, not followed.
        var huge = valid
        huge[8 + 2 + 4] = 0xFF
        huge[8 + 2 + 5] = 0xFF
        huge[8 + 2 + 6] = 0xFF
        huge[8 + 2 + 7] = 0x7F
        let parsed = try ExifStructure(parsing: huge)
        #expect(parsed.ifd0.count == 3)  // Make dropped; Orientation, Artist, Copyright kept
        // A directory whose sub-IFD pointer points back at IFD0 is read once, not followed again.
        var loop = valid
        let exifPointerEntry = 8 + 2 + 4 * 12
        loop[exifPointerEntry + 8] = 8
        loop[exifPointerEntry + 9] = 0
        loop[exifPointerEntry + 10] = 0
        loop[exifPointerEntry + 11] = 0
        let looped = try ExifStructure(parsing: loop)
        #expect(looped.exif?.isEmpty == false)
        _ = looped.serialized()
    }
}
