import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageWebP

@Suite("WebP: incremental decoding")
struct WebPIncrementalTests {
    static func webp(width: Int = 64, height: Int = 64, lossless: Bool, alpha: Bool = false) throws -> Data {
        let pixels =
            alpha
            ? ImageFixtures.translucentGradient(width: width, height: height)
            : ProgressiveFixtures.texture(width: width, height: height)
        return try WebPCoder().encode(
            Image(pixels: pixels), as: .webp, options: ImageEncodingOptions(quality: 0.8, lossless: lossless))
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func byteByByteAndRandomChunksGiveTheOneShotPixels(lossless: Bool, alpha: Bool) throws {
        let data = try Self.webp(lossless: lossless, alpha: alpha)
        let expected = try WebPCoder().decode(data)
        for chunks in [data.map { Data([$0]) }, ProgressiveFixtures.randomChunks(data, maximum: 200)] {
            let decoder = WebPCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
            let images = try ProgressiveFixtures.feed(chunks, to: decoder)
            #expect(decoder.isComplete)
            #expect(images.last?.pixels == expected.pixels)
        }
    }

    @Test func aPartialWebPShowsItsRowsSoFar() throws {
        let data = try Self.webp(width: 64, height: 128, lossless: false)
        let final = try WebPCoder().decode(data).pixels
        let decoder = WebPCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let parts = try ProgressiveFixtures.previewParts(data, decoder: WebPCoder().makeIncrementalDecoder(options: ImageDecodingOptions()))
        #expect(parts.count >= 3)
        try decoder.append(parts[0])
        let partial = try #require(try decoder.currentImage()).pixels
        #expect(!decoder.isComplete)
        #expect(partial[3, 127] == .clear)
        #expect(partial[3, 0] == final[3, 0])
    }

    @Test func thumbnailsComeAtTheOneShotSize() throws {
        let data = try Self.webp(width: 128, height: 96, lossless: false)
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let expected = try WebPCoder().decode(data, options: options)
        let images = try ProgressiveFixtures.feed(
            ProgressiveFixtures.randomChunks(data, maximum: 64), to: WebPCoder().makeIncrementalDecoder(options: options))
        #expect(images.allSatisfy { $0.pixelSize == expected.pixelSize })
        #expect(images.last?.pixels == expected.pixels)
    }

    @Test func thePixelLimitIsCheckedFromTheHeader() throws {
        let decoder = WebPCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(DecompressionBombs.webPLossless(width: 16_000, height: 16_000)) }
        #expect(error?.code == .tooLarge)
    }

    @Test func corruptDataIsATypedError() throws {
        var bytes = [UInt8](try Self.webp(lossless: true))
        for i in 30..<bytes.count { bytes[i] ^= 0x5A }
        let decoder = WebPCoder().makeIncrementalDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: WebImageError.self) { try decoder.append(Data(bytes)) }
        #expect(error?.code == .badImageData)
    }
}
