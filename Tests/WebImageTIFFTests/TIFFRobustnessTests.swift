import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageTIFF

@Suite struct TIFFRobustnessTests {
    let coder = TIFFCoder()

    @Test func hugeDeclaredSizeIsTooLargeBeforeAllocating() throws {
        // 100000 × 100000 RGB declared in a 150-byte file: refused from the directory.
        let data = TIFFTestFiles.file(
            width: 100_000, height: 100_000,
            entries: [
                TIFFTestFiles.short(258, 8, 8, 8), TIFFTestFiles.short(259, 1), TIFFTestFiles.short(262, 2),
                TIFFTestFiles.short(277, 3),
            ],
            pixelData: [1, 2, 3])
        let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error.code == .tooLarge)
        #expect(try coder.readHeader(data).pixelSize == PixelSize(width: 100_000, height: 100_000))
    }

    @Test func customPixelLimit() throws {
        let data = try coder.encode(
            Image(pixels: ImageFixtures.gradient(width: 20, height: 10)), as: .tiff, options: ImageEncodingOptions())
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 199))
        }
        #expect(error.code == .tooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 200)).pixelSize.pixelCount == 200)
    }

    @Test func pagesCountAgainstTheAnimationBudget() throws {
        let data = try coder.encode(ImageFixtures.animation(frames: 3), as: .tiff, options: ImageEncodingOptions())
        let frame = try coder.decode(data).pixelSize.pixelCount
        var options = ImageDecodingOptions()
        options.maxAnimationPixelCount = frame * 3 - 1
        let error = try #require(throws: WebImageError.self) { try coder.decode(data, options: options) }
        #expect(error.code == .tooLarge)
        options.firstFrameOnly = true
        #expect(try coder.decode(data, options: options).animation == nil)
    }

    @Test func everyTruncationIsATypedError() throws {
        let data = try coder.encode(
            Image(pixels: ImageFixtures.translucentGradient(width: 16, height: 9)), as: .tiff,
            options: ImageEncodingOptions())
        for length in 0..<data.count {
            let error = try #require(throws: WebImageError.self, "prefix of \(length) bytes") {
                _ = try coder.decode(data.prefix(length))
            }
            #expect(error.code == .badImageData, "prefix of \(length) bytes: \(error)")
        }
    }

    @Test func errorsCarryLibtiffsReason() throws {
        var bytes = [UInt8](
            try coder.encode(Image(pixels: ImageFixtures.gradient(width: 8, height: 8)), as: .tiff, options: .init()))
        bytes[4...7] = [0xFF, 0xFF, 0xFF, 0x7F]  // the first directory's offset points beyond the file
        let error = try #require(throws: WebImageError.self) { try coder.decode(Data(bytes)) }
        #expect(error.code == .badImageData)
        #expect(error.message.contains("TIFF"))
        #expect(error.message.count > "TIFF data is unreadable: ".count)
    }

    /// Seeded byte flips and truncations of single- and multi-page files: an image (whose pages all
    /// decode or fail with a typed error) or a typed error, never a crash or a hang.
    @Test(arguments: [false, true])
    func corruptedFilesNeverCrash(multiPage: Bool) throws {
        let original =
            multiPage
            ? try coder.encode(ImageFixtures.animation(frames: 3), as: .tiff, options: ImageEncodingOptions())
            : try coder.encode(
                Image(pixels: ImageFixtures.translucentGradient(width: 24, height: 16)), as: .tiff,
                options: ImageEncodingOptions())
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var decoded = 0
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
                if let pages = image.animation {
                    for index in 0..<pages.frameCount {
                        #expect(throws: Never.self) {
                            do { _ = try pages.frame(at: index) } catch is WebImageError {}
                        }
                    }
                }
                #expect(throws: Never.self) { do { _ = try coder.readHeader(Data(bytes)) } catch is WebImageError {} }
                decoded += 1
            } catch let error as WebImageError {
                #expect([WebImageError.Code.badImageData, .tooLarge].contains(error.code), "trial \(trial): \(error)")
            }
        }
        #expect(decoded > 0)
    }
}
