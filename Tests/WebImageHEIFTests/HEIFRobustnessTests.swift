import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageHEIF

@Suite struct HEIFRobustnessTests {
    let coder = HEIFCoder()

    /// A small HEIC whose `ispe` declares hundreds of megapixels: `tooLarge` from the container
    /// (our limit, or libheif's own per-side security limit beyond 32768), before HEVC decoding.
    @Test(.enabled(if: HEIFCoder.canEncodeHEIC), arguments: [(UInt32(20_000), UInt32(20_000)), (60_000, 60_000)])
    func declaredHugeSizeIsTooLarge(width: UInt32, height: UInt32) throws {
        let small = try HEIFEncoder.encode(
            ImageFixtures.gradient(width: 16, height: 16), options: ImageEncodingOptions(speed: 10))
        var bytes = [UInt8](small)
        for offset in 0..<(bytes.count - 16) where bytes[offset..<offset + 4].elementsEqual("ispe".utf8) {
            for (index, value) in [width, height].enumerated() {
                for byte in 0..<4 { bytes[offset + 8 + index * 4 + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
            }
        }
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes)) }
        #expect(error.code == .tooLarge, "\(error)")
    }

    @Test func garbageThrowsBadImageData() throws {
        let inputs: [Data] = [
            Data(),
            Data([0, 0, 0, 0x18] + Array("ftypheic".utf8)),
            Data([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)),
            Data([0, 0, 0, 0x10] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("meta".utf8) + [0xFF, 0xFF]),
            Data((0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
        ]
        for input in inputs {
            let error = try #require(throws: WebImageError.self, "\(Array(input.prefix(24)))") {
                _ = try coder.decode(input)
            }
            #expect(error.code == .badImageData, "\(error)")
            #expect(throws: WebImageError.self) { try coder.readHeader(input) }
        }
    }

    /// Prefixes of a generated HEIC (every length up to 400 bytes, then every 5th): typed errors only.
    @Test(.enabled(if: HEIFCoder.canEncodeHEIC), arguments: [false, true])
    func truncationsThrowTypedErrors(withAlpha: Bool) throws {
        let pixels =
            withAlpha
            ? ImageFixtures.translucentGradient(width: 24, height: 16) : ImageFixtures.gradient(width: 24, height: 16)
        let data = try HEIFEncoder.encode(pixels, options: ImageEncodingOptions(quality: 0.8, speed: 10), thumbnailSide: 12)
        var lengths = Array(0..<min(400, data.count))
        lengths += Array(stride(from: 400, to: data.count, by: 5))
        var rejected = 0
        for length in lengths {
            do {
                _ = try? coder.readHeader(data.prefix(length))
                _ = try coder.decode(data.prefix(length))
                let box = PixelSize(width: 8, height: 8)
                _ = try coder.decode(data.prefix(length), options: ImageDecodingOptions(thumbnailPixelSize: box))
            } catch let error as WebImageError {
                rejected += 1
                #expect(error.code == .badImageData, "prefix of \(length) bytes: \(error)")
            }
        }
        // Everything before the image data is refused (libheif may decode a picture whose last
        // slice bytes are missing, as browsers do, so the longest prefixes may pass).
        #expect(rejected >= lengths.count / 2)
    }

    /// Seeded byte flips anywhere in a generated HEIC (300 variants): an image or a typed error.
    @Test(.enabled(if: HEIFCoder.canEncodeHEIC)) func corruptedBytesNeverCrash() throws {
        let original = try HEIFEncoder.encode(
            ImageFixtures.translucentGradient(width: 24, height: 16), options: ImageEncodingOptions(quality: 0.8, speed: 10),
            thumbnailSide: 12)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var failures = 0
        for trial in 0..<300 {
            var bytes = [UInt8](original)
            for _ in 0..<(1 + trial % 4) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = Int(state >> 33) % bytes.count
                bytes[position] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
            }
            let data = Data(bytes)
            do {
                _ = try? coder.readHeader(data)
                _ = try coder.decode(data)
                _ = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 8, height: 8)))
            } catch is WebImageError {
                failures += 1
            }
        }
        #expect(failures > 0)
    }
}
