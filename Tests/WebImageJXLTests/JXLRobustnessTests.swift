import Foundation
import Testing
import WebImage
import WebImageJXL
import WebImageTesting

@Suite struct JXLRobustnessTests {
    let coder = JXLCoder()

    @Test func pixelLimitIsCheckedFromTheBasicInfo() throws {
        let data = try coder.encode(
            Image(pixels: ImageFixtures.gradient(width: 20, height: 10)), as: .jpegXL,
            options: ImageEncodingOptions(lossless: true))
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 199))
        }
        #expect(error.code == .tooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 200)).pixelSize.pixelCount == 200)
    }

    @Test func hugeDeclaredSizeInAFewBytesIsTooLarge() throws {
        // The first bytes of a codestream declaring a 2^20 × 2^20 image: FF 0A, a SizeHeader (not
        // small; height and width in the 30-bit form, no ratio), default ImageMetadata; no pixels.
        var writer = BitWriter()
        writer.write(0, bits: 1)  // small: no
        writer.write(3, bits: 2)  // height selector: 30 bits
        writer.write((1 << 20) - 1, bits: 30)
        writer.write(0, bits: 3)  // ratio: none
        writer.write(3, bits: 2)  // width selector: 30 bits
        writer.write((1 << 20) - 1, bits: 30)
        writer.write(1, bits: 1)  // ImageMetadata: all_default (8-bit sRGB)
        let data = Data([0xFF, 0x0A] + writer.bytes + [UInt8](repeating: 0, count: 16))
        let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error.code == .tooLarge, "\(error)")
    }

    @Test func framesCountAgainstTheAnimationBudget() throws {
        let data = try coder.encode(
            ImageFixtures.animation(frames: 3), as: .jpegXL, options: ImageEncodingOptions(lossless: true))
        let frame = try coder.decode(data).pixelSize.pixelCount
        var options = ImageDecodingOptions()
        options.maxAnimationPixelCount = frame * 3 - 1
        let error = try #require(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error.code == .tooLarge)
        options.firstFrameOnly = true
        #expect(try coder.decode(data, options: options).animation == nil)
    }

    @Test(arguments: ["lossless", "lossy", "animated"])
    func everyTruncationIsATypedError(kind: String) throws {
        let pixels = ImageFixtures.translucentGradient(width: 16, height: 9)
        let data: Data =
            switch kind {
            case "lossless": try coder.encode(Image(pixels: pixels), as: .jpegXL, options: .init(lossless: true))
            case "lossy": try coder.encode(Image(pixels: pixels), as: .jpegXL, options: .init(quality: 0.8))
            default: try coder.encode(ImageFixtures.animation(frames: 3), as: .jpegXL, options: .init(lossless: true))
            }
        for length in 0..<data.count {
            let error = try #require(throws: WebImageError.self, "prefix of \(length) bytes") {
                let image = try coder.decode(data.prefix(length))
                if let animation = image.animation {
                    for index in 0..<animation.frameCount { _ = try animation.frame(at: index) }
                }
            }
            #expect(error.code == .badImageData, "prefix of \(length) bytes: \(error)")
        }
    }

    /// Seeded byte flips (and truncations) of still and animated files: an image or a typed error,
    /// never a crash or a hang.
    @Test(arguments: [false, true])
    func corruptedFilesNeverCrash(animated: Bool) throws {
        let original =
            animated
            ? try coder.encode(ImageFixtures.animation(frames: 3), as: .jpegXL, options: .init(lossless: true))
            : try coder.encode(
                Image(pixels: ImageFixtures.translucentGradient(width: 24, height: 16)), as: .jpegXL,
                options: .init(quality: 0.8))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for trial in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var bytes = [UInt8](original)
            if trial % 5 == 4 {
                bytes.removeLast(Int(state >> 33) % bytes.count)
            } else {
                for _ in 0..<(1 + trial % 4) {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    bytes[Int(state >> 33) % bytes.count] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
                }
            }
            do {
                let image = try coder.decode(Data(bytes))
                if let frames = image.animation {
                    for index in 0..<frames.frameCount {
                        #expect(throws: Never.self) { do { _ = try frames.frame(at: index) } catch is WebImageError {} }
                    }
                }
                #expect(throws: Never.self) { do { _ = try coder.readHeader(Data(bytes)) } catch is WebImageError {} }
            } catch let error as WebImageError {
                #expect([WebImageError.Code.badImageData, .tooLarge].contains(error.code), "trial \(trial): \(error)")
            }
        }
    }
}

/// Writes bits least-significant first, as the JPEG XL codestream does.
struct BitWriter {
    var bytes: [UInt8] = []
    private var used = 0

    mutating func write(_ value: UInt64, bits: Int) {
        for bit in 0..<bits {
            if used % 8 == 0 { bytes.append(0) }
            if value >> UInt64(bit) & 1 == 1 { bytes[bytes.count - 1] |= 1 << UInt8(used % 8) }
            used += 1
        }
    }
}
