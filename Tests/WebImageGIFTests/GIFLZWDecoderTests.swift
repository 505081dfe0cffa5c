import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageGIF

/// The LZW fast path gives giflib's indices for every well-formed frame, and hands anything
/// irregular back to giflib.
@Suite("GIF LZW fast path")
struct GIFLZWDecoderTests {
    /// A noisy gradient: enough distinct strings to fill the 4096-entry table many times.
    static func noisy(width: Int, height: Int, seed: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
            var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 | 1)
            for i in 0..<(width * height) {
                state = state &* 1_664_525 &+ 1_013_904_223
                out[4 * i] = UInt8(truncatingIfNeeded: i % width + Int(state >> 28))
                out[4 * i + 1] = UInt8(truncatingIfNeeded: i / width * 2)
                out[4 * i + 2] = UInt8(truncatingIfNeeded: state >> 24)
                out[4 * i + 3] = state >> 30 == 0 ? 0 : 255
            }
        }
    }

    static func files() throws -> [(String, Data)] {
        let frames = (0..<3).map { AnimationFrame(pixels: noisy(width: 150, height: 90, seed: $0), duration: 0.1) }
        let animation = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames))
        return [
            ("disposals", try GIFTestFiles.disposals()),
            ("interlaced", try GIFTestFiles.interlaced(height: 29).data),
            ("noisy animation", try GIFCoder().encode(animation, as: .gif, options: ImageEncodingOptions())),
            ("16 colours", try GIFCoder().encode(animation, as: .gif, options: ImageEncodingOptions(quality: 0.05))),
        ]
    }

    @Test func everyFrameMatchesGiflib() throws {
        for (name, data) in try Self.files() {
            try data.withUnsafeBytes { bytes in
                let container = try GIFContainer(parsing: bytes)
                for (index, record) in container.frames.enumerated() {
                    let fast = try #require(
                        GIFLZWDecoder.decode(bytes, container: container, record: record), "\(name) frame \(index)")
                    let reference = try GIFFrameDecoder.decodeWithGiflib(bytes, container: container, record: record)
                    #expect(fast.width == reference.width && fast.height == reference.height, "\(name) frame \(index)")
                    #expect(fast.indices == reference.indices, "\(name) frame \(index)")
                    #expect(fast.palette == reference.palette, "\(name) frame \(index)")
                }
            }
        }
    }

    /// A 2×1 GIF whose LZW codes (3 bits: clear, 0, 7, end) name code 7 before it exists.
    static let codeBeyondTheTable: [UInt8] =
        Array("GIF89a".utf8) + [2, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        + [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0] + [2, 2, 0xC4, 0x0B, 0] + [0x3B]

    @Test func irregularDataGoesToGiflib() throws {
        try Self.codeBeyondTheTable.withUnsafeBytes { bytes in
            let container = try GIFContainer(parsing: bytes)
            let record = container.frames[0]
            #expect(GIFLZWDecoder.decode(bytes, container: container, record: record) == nil)
            // Whatever giflib makes of it (here: lenient) is the answer.
            let decoded = try GIFFrameDecoder.decode(bytes, container: container, record: record, maxPixelCount: 100)
            let reference = try GIFFrameDecoder.decodeWithGiflib(bytes, container: container, record: record)
            #expect(decoded.indices == reference.indices)
        }
    }
}
