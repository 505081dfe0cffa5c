import Foundation
import Testing
import WebImage
import WebImageJPEG
import WebImageTesting

@Suite("JPEG: incremental decoding")
struct JPEGIncrementalTests {
    static func jpeg(width: Int = 96, height: Int = 72, progressive: Bool) throws -> Data {
        let image = Image(pixels: ProgressiveFixtures.texture(width: width, height: height))
        return try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodingOptions(quality: 0.9, progressive: progressive))
    }

    @Test func theEncoderWritesProgressiveScans() throws {
        #expect(ProgressiveFixtures.jpegScanStarts(try Self.jpeg(progressive: true)).count >= 6)
        #expect(ProgressiveFixtures.jpegScanStarts(try Self.jpeg(progressive: false)).count == 1)
    }

    @Test func aProgressiveJPEGShowsOneImagePerScan() throws {
        let data = try Self.jpeg(progressive: true)
        let parts = ProgressiveFixtures.jpegScanParts(data)
        let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let final = try JPEGCoder().decode(data)
        var shown: [Image] = []
        for (index, part) in parts.enumerated() {
            try decoder.append(part)
            let image = try #require(try decoder.currentImage(), "scan \(index + 1) shows an image")
            #expect(try decoder.currentImage() == nil, "nothing new until the next scan")
            #expect(image.pixelSize == final.pixelSize)
            #expect(decoder.isComplete == (index == parts.count - 1))
            shown.append(image)
        }
        #expect(shown.last?.pixels == final.pixels)
        // Early scans are coarse; the image gets closer to the final one as scans arrive.
        let first = ImageFixtures.meanAbsoluteDifference(shown[0].pixels, final.pixels)
        let beforeLast = ImageFixtures.meanAbsoluteDifference(shown[shown.count - 2].pixels, final.pixels)
        #expect(first > beforeLast)
        #expect(first > 1)
    }

    @Test(arguments: [true, false])
    func byteByByteAndRandomChunksGiveTheOneShotPixels(progressive: Bool) throws {
        let data = try Self.jpeg(progressive: progressive)
        let expected = try JPEGCoder().decode(data).pixels
        for chunks in [data.map { Data([$0]) }, ProgressiveFixtures.randomChunks(data, maximum: 700)] {
            let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
            let images = try ProgressiveFixtures.feed(chunks, to: decoder)
            #expect(decoder.isComplete)
            #expect(images.last?.pixels == expected)
            #expect(try decoder.currentImage() == nil)
        }
    }

    @Test func aBaselineJPEGShowsItsRowsSoFarOverGrey() throws {
        let data = try Self.jpeg(width: 64, height: 64, progressive: false)
        let final = try JPEGCoder().decode(data).pixels
        let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        try decoder.append(data.prefix(data.count / 2))
        let partial = try #require(try decoder.currentImage()).pixels
        #expect(!decoder.isComplete)
        // The top rows are the final ones; the bottom row is still mid-grey.
        #expect(Array(partial.bytes.prefix(64 * 4 * 8)) == Array(final.bytes.prefix(64 * 4 * 8)))
        #expect(partial[10, 63] == RGBA8(r: 128, g: 128, b: 128, a: 255))
        try decoder.append(data.dropFirst(data.count / 2))
        #expect(try decoder.currentImage()?.pixels == final)
    }

    @Test func thumbnailsComeAtTheOneShotThumbnailSize() throws {
        let data = try Self.jpeg(width: 256, height: 192, progressive: true)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 64, height: 64)
        let expected = try JPEGCoder().decode(data, options: options)
        let decoder = JPEGCoder().makeIncrementalDecoder(options: options)
        let images = try ProgressiveFixtures.feed(ProgressiveFixtures.jpegScanParts(data), to: decoder)
        #expect(images.count == ProgressiveFixtures.jpegScanStarts(data).count)
        #expect(images.allSatisfy { $0.pixelSize == expected.pixelSize })
        #expect(images.last?.pixels == expected.pixels)
    }

    @Test func thePixelLimitIsCheckedFromTheHeader() throws {
        let data = try Self.jpeg(progressive: true)
        var options = ImageDecodingOptions()
        options.maxPixelCount = 1000
        let decoder = JPEGCoder().makeIncrementalDecoder(options: options)
        let error = #expect(throws: WebImageError.self) { try decoder.append(data) }
        #expect(error?.code == .tooLarge)
    }

    @Test func corruptDataIsATypedError() throws {
        var bytes = [UInt8](try Self.jpeg(progressive: true))
        // Destroy the frame header's marker: libjpeg finds no SOF before the scan.
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
        bytes[sof + 1] = 0x01
        let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(Data(bytes)) }
        #expect(error?.code == .badImageData)
    }

    @Test func aTruncatedProgressiveJPEGShowsItsCompletedScansAndThenFailsToDecode() throws {
        let data = try Self.jpeg(progressive: true)
        let parts = ProgressiveFixtures.jpegScanParts(data)
        let truncated = parts.prefix(3).reduce(Data(), +)
        let decoder = JPEGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let images = try ProgressiveFixtures.feed(Array(parts.prefix(3)), to: decoder)
        #expect(images.count == 3)
        #expect(!decoder.isComplete)
        let error = #expect(throws: WebImageError.self) { try JPEGCoder().decode(truncated) }
        #expect(error?.code == .badImageData)
    }
}
