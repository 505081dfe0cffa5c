import Foundation
import Testing
import WebImageCodecs

@testable import WebImageFuzzing

/// The fuzz harness's contracts (typed errors only, buffers that match their size, thumbnails
/// within the box, sniffing that agrees with decoding) hold for the AVIF and HEIF decoders, on
/// files made by our encoders and on seeded byte flips of them.
@Suite struct AVIFHEIFContractTests {
    static func photo(width: Int, height: Int, translucent: Bool) -> PixelBuffer {
        PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8(x * 255 / max(1, width - 1))
                    out[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    out[i + 2] = UInt8((x * y) & 0xFF)
                    out[i + 3] = translucent ? UInt8(255 - x * 255 / max(1, width - 1)) : 255
                }
            }
        }
    }

    static func inputs() throws -> [(name: String, data: Data, decoder: any ImageDecoding)] {
        let fast = ImageEncodingOptions(quality: 0.7, speed: 10)
        let avif = AVIFCoder()
        func encode(_ image: Image, options: ImageEncodingOptions) throws -> Data {
            try avif.encode(image, as: .avif, options: options)
        }
        let frames = (0..<3).map { AnimationFrame(pixels: photo(width: 20, height: 14, translucent: $0 == 1), duration: 0.05) }
        let sequence = Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: 0))
        var inputs: [(name: String, data: Data, decoder: any ImageDecoding)] = [
            ("still.avif", try encode(Image(pixels: photo(width: 33, height: 21, translucent: false)), options: fast), avif),
            ("alpha.avif", try encode(Image(pixels: photo(width: 16, height: 9, translucent: true)), options: fast), avif),
            ("sequence.avif", try encode(sequence, options: fast), avif),
        ]
        if HEIFCoder.canEncodeHEIC {
            let heif = HEIFCoder(embeddedThumbnailSide: 12)
            let pixels = photo(width: 40, height: 24, translucent: true)
            inputs.append(("thumbnail.heic", try heif.encode(Image(pixels: pixels), as: .heic, options: fast), HEIFCoder()))
        }
        return inputs
    }

    @Test func generatedFilesAreAcceptedByEveryPass() throws {
        for input in try Self.inputs() {
            #expect(DecoderExercise(decoder: input.decoder).run(input.data) == .accepted, "\(input.name)")
            #expect(FuzzTarget.coders.run(input.data) == .accepted, "\(input.name) through the coders manager")
        }
    }

    /// 100 seeded mutations of each file (byte flips, truncations): never a broken contract.
    @Test func mutationsNeverBreakAContract() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for input in try Self.inputs() {
            var rejected = 0
            for trial in 0..<100 {
                var bytes = [UInt8](input.data)
                if trial % 5 == 4 {
                    bytes.removeLast(1 + next() % (bytes.count - 1))
                } else {
                    for _ in 0..<(1 + trial % 3) { bytes[next() % bytes.count] ^= UInt8(truncatingIfNeeded: next()) | 1 }
                }
                let outcome = DecoderExercise(decoder: input.decoder).run(Data(bytes))
                #expect(!outcome.isViolation, "\(input.name) trial \(trial): \(outcome)")
                if case .rejected = outcome { rejected += 1 }
            }
            #expect(rejected > 0, "\(input.name): no mutation was detected")
        }
    }
}
