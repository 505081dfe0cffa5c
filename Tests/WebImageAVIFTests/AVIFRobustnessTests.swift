import Foundation
import Testing
import WebImage
import WebImageAVIF
import WebImageTesting

@Suite struct AVIFRobustnessTests {
    let coder = AVIFCoder()

    @Test func sizeOverTheLimitIsTooLargeBeforeDecoding() throws {
        let data = try AVIFTestData.encode(ImageFixtures.gradient(width: 20, height: 10))
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 199))
        }
        #expect(error.code == .tooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 200)).pixelSize.pixelCount == 200)
    }

    /// A few hundred bytes declaring hundreds of megapixels: refused from the container, before
    /// the AV1 decoder starts; the header reports the declared size up to libavif's own limit.
    @Test(arguments: [(UInt32(20_000), UInt32(20_000)), (60_000, 60_000), (200_000_000, 1)])
    func declaredHugeSizeIsTooLarge(width: UInt32, height: UInt32) throws {
        let small = try AVIFTestData.encode(ImageFixtures.gradient(width: 16, height: 16))
        let hostile = AVIFTestData.declaringSize(small, width: width, height: height)
        let error = try #require(throws: WebImageError.self) { try coder.decode(hostile) }
        #expect(error.code == .tooLarge, "\(error)")
        if UInt64(width) * UInt64(height) <= 16384 * 16384 {
            #expect(try coder.readHeader(hostile).pixelSize == PixelSize(width: Int(width), height: Int(height)))
        } else {
            // Beyond libavif's own limit even the parse refuses, and says so.
            let headerError = try #require(throws: WebImageError.self) { try coder.readHeader(hostile) }
            #expect(headerError.code == .tooLarge)
        }
    }

    @Test func garbageThrowsBadImageData() throws {
        let inputs: [Data] = [
            Data(),
            Data([0, 0, 0, 0x18] + Array("ftypavif".utf8)),
            Data([0, 0, 0, 0x18] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1miaf".utf8)),
            Data([0, 0, 0, 0x10] + Array("ftypavis".utf8) + [0, 0, 0, 0] + Array("meta".utf8) + [0xFF, 0xFF]),
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

    @Test(arguments: ["still", "alpha", "sequence"])
    func everyTruncationThrowsATypedError(kind: String) throws {
        let data: Data =
            switch kind {
            case "still": try AVIFTestData.encode(ImageFixtures.gradient(width: 24, height: 16))
            case "alpha": try AVIFTestData.encode(ImageFixtures.translucentGradient(width: 24, height: 16))
            default: try AVIFTestData.animation(frames: 3)
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

    /// Seeded byte flips anywhere in generated files (300 variants each): an image or a typed
    /// error, never a crash or an untyped error.
    @Test(arguments: [false, true])
    func corruptedBytesNeverCrash(animated: Bool) throws {
        let original =
            animated
            ? try AVIFTestData.animation(frames: 3)
            : try AVIFTestData.encode(ImageFixtures.translucentGradient(width: 24, height: 16))
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
                let image = try coder.decode(data)
                if let animation = image.animation {
                    for index in 0..<animation.frameCount { _ = try animation.frame(at: index) }
                }
            } catch is WebImageError {
                failures += 1
            }
        }
        #expect(failures > 0)  // some corruption was detected, so the loop exercised error paths.
    }
}
