import Foundation
import Testing
import WebImage
import WebImagePNG
import WebImageTesting

@Suite("PNG: incremental decoding")
struct PNGIncrementalTests {
    static func png(width: Int = 40, height: Int = 30, interlaced: Bool, alpha: Bool = false) throws -> Data {
        let pixels =
            alpha
            ? ImageFixtures.translucentGradient(width: width, height: height)
            : ProgressiveFixtures.texture(width: width, height: height)
        return try PNGCoder().encode(
            Image(pixels: pixels), as: .png, options: ImageEncodingOptions(compressionLevel: 9, progressive: interlaced))
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func byteByByteAndRandomChunksGiveTheOneShotPixels(interlaced: Bool, alpha: Bool) throws {
        let data = try Self.png(interlaced: interlaced, alpha: alpha)
        let expected = try PNGCoder().decode(data)
        for chunks in [data.map { Data([$0]) }, ProgressiveFixtures.randomChunks(data, maximum: 300)] {
            let decoder = PNGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
            let images = try ProgressiveFixtures.feed(chunks, to: decoder)
            #expect(decoder.isComplete)
            #expect(images.last?.pixels == expected.pixels)
            #expect(images.last?.hasAlpha == expected.hasAlpha)
        }
    }

    @Test func anInterlacedPNGShowsOneImagePerAdam7Pass() throws {
        let data = try Self.png(interlaced: true)
        let final = try PNGCoder().decode(data).pixels
        let images = try ProgressiveFixtures.feed(data.map { Data([$0]) }, to: PNGCoder().makeIncrementalDecoder(options: ImageDecodingOptions()))
        #expect(images.count == 7)
        // The first pass already fills the picture (blocky): no transparent pixel is left.
        #expect(images[0].pixels.isOpaque)
        let first = ImageFixtures.meanAbsoluteDifference(images[0].pixels, final)
        let sixth = ImageFixtures.meanAbsoluteDifference(images[5].pixels, final)
        #expect(first > sixth)
        #expect(images[6].pixels == final)
    }

    @Test func aPlainPNGShowsItsRowsSoFar() throws {
        let data = try Self.png(width: 32, height: 32, interlaced: false)
        let final = try PNGCoder().decode(data).pixels
        let decoder = PNGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        try decoder.append(data.prefix(data.count / 2))
        let partial = try #require(try decoder.currentImage()).pixels
        #expect(!decoder.isComplete)
        #expect(partial[5, 0] == final[5, 0])
        #expect(partial[5, 31] == .clear)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func thumbnailsComeAtTheOneShotSize() throws {
        let data = try Self.png(width: 80, height: 60, interlaced: true)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 20, height: 20)
        let expected = try PNGCoder().decode(data, options: options)
        let images = try ProgressiveFixtures.feed(
            ProgressiveFixtures.randomChunks(data, maximum: 100), to: PNGCoder().makeIncrementalDecoder(options: options))
        #expect(images.allSatisfy { $0.pixelSize == expected.pixelSize })
        #expect(images.last?.pixels == expected.pixels)
    }

    @Test func thePixelLimitIsCheckedOnIHDR() throws {
        let bomb = DecompressionBombs.pngStrip()
        let decoder = PNGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(bomb) }
        #expect(error?.code == .tooLarge)
    }

    @Test func corruptDataIsATypedError() throws {
        var bytes = [UInt8](try Self.png(interlaced: false))
        bytes[50] ^= 0xFF  // inside the IDAT data: the CRC no longer matches
        let decoder = PNGCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(Data(bytes)) }
        #expect(error?.code == .badImageData)
    }
}
