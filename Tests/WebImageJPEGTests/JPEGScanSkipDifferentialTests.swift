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

    /// An 8×8 grey progressive JPEG whose only block is zero but for its DC coefficient, in
    /// `1 + 63 × (1 + refinements)` scans: a DC scan, then every AC coefficient in a band of its
    /// own, first at 2^refinements precision, then refined bit by bit.
    static func manyScans(refinements: UInt8) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += JPEGTestData.segment(0xDB, [0] + [UInt8](repeating: 8, count: 64))
        bytes += JPEGTestData.segment(0xC2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        // One 1-bit code in each table: DC category 0, AC end-of-band (run of 1).
        bytes += JPEGTestData.segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        bytes += JPEGTestData.segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0])
        // Each scan's data is that one code, "0", padded with ones.
        bytes += JPEGTestData.segment(0xDA, [1, 1, 0x00, 0, 0, 0]) + [0x7F]
        for coefficient in UInt8(1)...63 {
            bytes += JPEGTestData.segment(0xDA, [1, 1, 0x00, coefficient, coefficient, refinements]) + [0x7F]
            for bit in stride(from: refinements, to: 0, by: -1) {
                bytes += JPEGTestData.segment(0xDA, [1, 1, 0x00, coefficient, coefficient, bit << 4 | (bit - 1)]) + [0x7F]
            }
        }
        return Data(bytes + [0xFF, 0xD9])
    }

    @Test("more scans than the limit, past it only through AC scans that are left out: refused both ways")
    func scanLimit() throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 1, height: 1))
        // 1 + 63 × 7 = 442 scans, within the limit: the 1/8 decode leaves 441 out.
        let within = Self.manyScans(refinements: 6)
        var arrays: [Int] = []
        let image = try JPEGDecoder.decode(within, options: options, leftOutScans: { arrays.append($0) })
        #expect(arrays == [1])
        #expect(image.pixels == (try JPEGDecoder.decode(within, options: options, skippingUnusedScans: false)).pixels)
        #expect(JPEGScanSkipDifferential.firstDifference(in: within) == nil)
        // 1 + 63 × 9 = 568 scans.
        let beyond = Self.manyScans(refinements: 8)
        for skipping in [false, true] {
            let error = try #require(throws: WebImageError.self) {
                try JPEGDecoder.decode(beyond, options: options, skippingUnusedScans: skipping)
            }
            #expect(error.code == .badImageData && error.message.contains("progressive scans"), "\(error)")
        }
        #expect(JPEGScanSkipDifferential.firstDifference(in: beyond) == nil)
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
