import Foundation
import Testing
import WebImage

@testable import WebImageJPEG

@Suite("JPEG EXIF orientation")
struct JPEGOrientationTests {
    let coder = JPEGCoder()

    @Test("APP1 orientation is exposed, not applied", arguments: 1...8, [false, true])
    func exposed(orientation: Int, bigEndian: Bool) throws {
        let plain = try JPEGTestData.gradientJPEG(width: 17, height: 9)
        let tagged = JPEGTestData.splicingEXIF(
            JPEGTestData.exifTIFF(orientation: orientation, bigEndian: bigEndian), into: plain)
        let reference = try coder.decode(plain)
        let image = try coder.decode(tagged)
        #expect(reference.orientation == .up)
        #expect(image.orientation.rawValue == orientation)
        #expect(image.pixels == reference.pixels)
        #expect(image.pixelSize == PixelSize(width: 17, height: 9))
    }

    @Test("orientation survives thumbnailing")
    func thumbnailKeepsOrientation() throws {
        let plain = try JPEGTestData.gradientJPEG(width: 160, height: 80)
        let tagged = JPEGTestData.splicingEXIF(JPEGTestData.exifTIFF(orientation: 6, bigEndian: true), into: plain)
        let image = try coder.decode(tagged, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40)))
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 40, height: 20))
    }

    @Test("thumbnail boxes apply to the displayed orientation (hand-built APP1, orientation 6)")
    func thumbnailBoxIsDisplayed() throws {
        // A portrait photo stored landscape: 400×300 stored, displayed 300×400.
        let plain = try JPEGTestData.gradientJPEG(width: 400, height: 300)
        let tagged = JPEGTestData.splicingEXIF(JPEGTestData.exifTIFF(orientation: 6, bigEndian: false), into: plain)
        let box = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 32, height: 100))
        let image = try coder.decode(tagged, options: box)
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 43, height: 32))
        #expect(image.size.width == 32)
        #expect(image.size.height == 43)
        // The same pixels as the upright decode's thumbnail, once displayed.
        let upright = try coder.decode(plain, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 100, height: 32)))
        #expect(upright.pixelSize == image.pixelSize)
        #expect(image.pixels == upright.pixels)
    }

    @Test("a LONG-typed orientation is read too")
    func longType() {
        let tiff = JPEGTestData.exifTIFF(orientation: 8, bigEndian: false, type: 4)
        #expect(ExifOrientationReader.orientation(inTIFF: tiff) == .left)
    }

    @Test("malformed EXIF gives no orientation and does not fail the decode")
    func malformed() throws {
        let good = JPEGTestData.exifTIFF(orientation: 3, bigEndian: false)
        #expect(ExifOrientationReader.orientation(inTIFF: good) == .down)
        var badMagic = good
        badMagic[2] = 43
        var badOffset = good
        badOffset[4] = 0xF0
        var badValue = good
        badValue[30] = 9  // orientation 9 does not exist
        var manyEntries = Array(good.prefix(22))
        manyEntries[8] = 0xFF
        manyEntries[9] = 0xFF  // 65535 entries, far past the end, none of them an orientation
        for tiff in [[], Array(good.prefix(7)), Array(good.prefix(20)), badMagic, badOffset, badValue, [0x41, 0x42] + good.dropFirst(2)] {
            #expect(ExifOrientationReader.orientation(inTIFF: tiff) == nil)
        }
        #expect(ExifOrientationReader.orientation(inTIFF: manyEntries) == nil)

        let plain = try JPEGTestData.gradientJPEG(width: 8, height: 8)
        let image = try coder.decode(JPEGTestData.splicingEXIF(badOffset, into: plain))
        #expect(image.orientation == .up)
    }
}
