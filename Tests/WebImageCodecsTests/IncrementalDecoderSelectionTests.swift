import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

@Suite("ImageCodersManager: incremental decoders")
struct IncrementalDecoderSelectionTests {
    static func samples() throws -> [(ImageFormat, Data)] {
        let image = Image(pixels: ProgressiveFixtures.texture(width: 48, height: 32))
        let coders = ImageCodersManager.standard()
        return [
            (.jpeg, try coders.encode(image, as: .jpeg, options: ImageEncodingOptions(progressive: true))),
            (.png, try coders.encode(image, as: .png, options: ImageEncodingOptions(progressive: true))),
            (.webp, try coders.encode(image, as: .webp, options: ImageEncodingOptions(quality: 0.8))),
            (.gif, try coders.encode(image, as: .gif, options: ImageEncodingOptions())),
        ]
    }

    @Test func theManagerSniffsTheFormatFromTheFirstBytesAndDecodesEveryFormatLikeAOneShotDecode() throws {
        let coders = ImageCodersManager.standard()
        for (format, data) in try Self.samples() {
            // Byte by byte: the format is recognised as soon as its signature is in.
            let decoder = coders.makeIncrementalDecoder(options: ImageDecodingOptions())
            let images = try ProgressiveFixtures.feed(data.map { Data([$0]) }, to: decoder)
            #expect(decoder.isComplete, "\(format)")
            #expect(images.last?.pixels == (try coders.decode(data)).pixels, "\(format)")
            #expect(images.last?.format == format)
        }
    }

    @Test func anUnknownFormatShowsNothing() throws {
        let coders = ImageCodersManager.standard()
        #expect(coders.makeIncrementalDecoder(for: Data("BM\0\0\0\0".utf8), options: ImageDecodingOptions()) == nil)
        let decoder = coders.makeIncrementalDecoder(options: ImageDecodingOptions())
        try decoder.append(Data(repeating: 0x42, count: 200))
        #expect(try decoder.currentImage() == nil)
        #expect(!decoder.isComplete)
    }

    @Test func theLastRegisteredCoderDecides() throws {
        // A JPEG coder without the capability registered last: no incremental decoder for JPEG.
        let coders = ImageCodersManager.standard()
        coders.addCoder(PlainJPEGCoder())
        let jpeg = try Self.samples()[0].1
        #expect(coders.makeIncrementalDecoder(for: jpeg, options: ImageDecodingOptions()) == nil)
    }
}

/// A coder that decodes JPEG but cannot decode incrementally.
private struct PlainJPEGCoder: ImageCoding {
    var name: String { "plain-jpeg" }
    func canDecode(_ data: Data) -> Bool { JPEGCoder().canDecode(data) }
    func canEncode(_ format: ImageFormat) -> Bool { false }
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image { try JPEGCoder().decode(data, options: options) }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw WebImageError(.unsupportedFormat, "no")
    }
}

@Suite("Incremental decoders against damaged input")
struct IncrementalDecoderRobustnessTests {
    /// Byte flips and truncations fed in random chunks: every failure is a `WebImageError`, nothing
    /// crashes or hangs, and a decoder that completes shows an image of the header's size.
    @Test func flippedAndTruncatedFilesOnlyEverThrowTypedErrors() throws {
        let coders = ImageCodersManager.standard()
        var generator = SystemRandomNumberGenerator()
        for (format, data) in try IncrementalDecoderSelectionTests.samples() {
            for trial in 0..<150 {
                var bytes = [UInt8](data)
                for _ in 0..<(1 + trial % 4) {
                    let position = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
                }
                if trial % 3 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count / 2, using: &generator)) }
                let decoder = coders.makeIncrementalDecoder(options: ImageDecodingOptions())
                do {
                    for chunk in ProgressiveFixtures.randomChunks(Data(bytes), maximum: 97, seed: UInt64(trial)) {
                        try decoder.append(chunk)
                        _ = try decoder.currentImage()
                    }
                } catch let error as WebImageError {
                    #expect(!error.message.isEmpty, "\(format) trial \(trial)")
                } catch {
                    Issue.record("\(format) trial \(trial): untyped error \(error)")
                }
            }
        }
    }
}
