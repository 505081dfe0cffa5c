import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageJPEG

/// The differential behind the `jpeg-scan-skip-differential` fuzz target: silent on files whose
/// skipping and plain decodes agree, on the documented case (damage in a scan that is left out),
/// and loud on any other difference.
@Suite("JPEG: scan-skipping differential")
struct JPEGScanSkipDifferentialTests {
    @Test("progressive and baseline files: both decodes agree at 1/8, as a draft and at 2/8")
    func agrees() throws {
        let progressive = try JPEGScanFilterTests.photoLike(width: 203, height: 157)
        #expect(JPEGScanSkipDifferential.firstDifference(in: progressive) == nil)
        let baseline = try JPEGScanFilterTests.photoLike(width: 64, height: 40, progressive: false)
        #expect(JPEGScanSkipDifferential.firstDifference(in: baseline) == nil)
        // Not a JPEG, and a JPEG above the pixel limit: refused alike.
        #expect(JPEGScanSkipDifferential.firstDifference(in: Data("not a jpeg".utf8)) == nil)
        #expect(JPEGScanSkipDifferential.firstDifference(in: progressive, maxPixelCount: 100) == nil)
    }

    @Test("the skipping decode reports the DC-only arrays it kept")
    func reportsDCOnlyArrays() throws {
        // Our encoder writes 4:2:0: luma's blocks become one pixel at 1/8, chroma's 2×2.
        let data = try JPEGScanFilterTests.photoLike(width: 96, height: 64)
        var arrays: [Int] = []
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 12, height: 8))
        _ = try JPEGDecoder.decode(data, options: options, leftOutScans: { arrays.append($0) })
        #expect(arrays == [1])
        // At 2/8 nothing is left out.
        _ = try JPEGDecoder.decode(
            data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 24, height: 16)),
            leftOutScans: { arrays.append($0) })
        #expect(arrays == [1])
    }

    @Test("a broken scan that is left out: the plain decode fails, the skipping one succeeds, as documented")
    func damageInALeftOutScan() throws {
        var data = [UInt8](try JPEGScanFilterTests.photoLike(width: 96, height: 64))
        // libjpeg's progression writes luma's first AC band (1–5) as the second scan; point it at
        // Huffman table 3, which the file does not define.
        let scan = ProgressiveFixtures.jpegScanStarts(Data(data))[1]
        #expect(data[scan + 4] == 1 && data[scan + 7] == 1 && data[scan + 8] == 5)
        data[scan + 6] = 0x03
        let damaged = Data(data)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 12, height: 8), preserveAspectRatio: false)
        let plain = try #require(throws: WebImageError.self) {
            try JPEGDecoder.decode(damaged, options: options, skippingUnusedScans: false)
        }
        #expect(plain.code == .badImageData)
        _ = try JPEGDecoder.decode(damaged, options: options)
        #expect(JPEGScanSkipDifferential.difference(damaged, options: options) == nil)
        #expect(JPEGScanSkipDifferential.firstDifference(in: damaged) == nil)
        // The same damage in a chroma scan, which is kept: both fail alike.
        var chroma = [UInt8](try JPEGScanFilterTests.photoLike(width: 96, height: 64))
        let chromaScan = ProgressiveFixtures.jpegScanStarts(Data(chroma))[2]
        #expect(chroma[chromaScan + 4] == 1 && chroma[chromaScan + 5] != 1)
        chroma[chromaScan + 6] = 0x03
        #expect(throws: WebImageError.self) { try JPEGDecoder.decode(Data(chroma), options: options) }
        #expect(JPEGScanSkipDifferential.firstDifference(in: Data(chroma)) == nil)
    }

    @Test("a difference in size, orientation or a single pixel byte is reported")
    func reportsDifferences() throws {
        let pixels = ImageFixtures.gradient(width: 4, height: 3)
        var changed = pixels
        changed.bytes[17] ^= 1
        let image = Image(pixels: pixels)
        #expect(JPEGScanSkipDifferential.imageDifference(image, Image(pixels: pixels)) == nil)
        #expect(JPEGScanSkipDifferential.imageDifference(image, Image(pixels: changed))?.contains("pixel byte 17") == true)
        #expect(JPEGScanSkipDifferential.imageDifference(image, Image(pixels: pixels, orientation: .right)) != nil)
        let smaller = Image(pixels: ImageFixtures.gradient(width: 4, height: 2))
        #expect(JPEGScanSkipDifferential.imageDifference(image, smaller)?.hasPrefix("size") == true)
    }
}
