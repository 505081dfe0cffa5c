import Foundation
import Testing
import WebImage
import WebImageTesting
import WebImageWebP

@Suite struct WebPRobustnessTests {
    let coder = WebPCoder()

    @Test func hugeVP8XHeaderIsTooLargeBeforeAllocating() throws {
        let data = WebPTestData.riff([WebPTestData.vp8x(flags: 0, width: 16383, height: 16383)])
        let error = try #require(throws: WebImageError.self) { try coder.decode(data) }
        #expect(error.code == .tooLarge)
    }

    @Test func headerOverACustomLimitIsTooLarge() throws {
        let data = try WebPTestData.encode(ImageFixtures.gradient(width: 20, height: 10), lossless: true)
        let error = try #require(throws: WebImageError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 199))
        }
        #expect(error.code == .tooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maxPixelCount: 200)).pixelSize.pixelCount == 200)
    }

    @Test(arguments: ["lossy", "lossless", "animated"])
    func everyTruncationThrowsATypedError(kind: String) throws {
        let pixels = ImageFixtures.translucentGradient(width: 24, height: 16)
        let data: Data =
            switch kind {
            case "lossy": try WebPTestData.encode(pixels, lossless: false)
            case "lossless": try WebPTestData.encode(pixels, lossless: true)
            default: try WebPTestData.animation(frames: 3, lossless: false)
            }
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            let error = try #require(throws: WebImageError.self, "prefix of \(length) bytes") {
                let image = try coder.decode(prefix)
                if let animation = image.animation {
                    for index in 0..<animation.frameCount { _ = try animation.frame(at: index) }
                }
            }
            #expect(error.code == .badImageData, "prefix of \(length) bytes: \(error)")
        }
    }

    @Test func garbageThrowsBadImageData() throws {
        let inputs: [Data] = [
            Data(),
            Data("RIFF".utf8),
            Data("RIFF\u{10}\u{0}\u{0}\u{0}WEBPVP8 ".utf8),
            Data("RIFF\u{10}\u{0}\u{0}\u{0}WEBPJUNKJUNKJUNKJUNK".utf8),
            Data((0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
            WebPTestData.riff([WebPTestData.chunk("VP8L", [0x2F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])]),
            WebPTestData.riff([WebPTestData.vp8x(flags: 0x02, width: 10, height: 10)]),
        ]
        for input in inputs {
            let error = try #require(throws: WebImageError.self, "\(Array(input.prefix(24)))") {
                _ = try coder.decode(input)
            }
            #expect(error.code == .badImageData, "\(error)")
        }
    }

    /// Flipping bytes anywhere must give either an image or a typed error, never a crash.
    @Test(arguments: [false, true])
    func corruptedBytesNeverCrash(animated: Bool) throws {
        let original =
            animated
            ? try WebPTestData.animation(frames: 3, lossless: false)
            : try WebPTestData.encode(ImageFixtures.translucentGradient(width: 24, height: 16), lossless: false)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var failures = 0
        for trial in 0..<300 {
            var bytes = [UInt8](original)
            for _ in 0..<(1 + trial % 4) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = Int(state >> 33) % bytes.count
                bytes[position] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
            }
            do {
                let image = try coder.decode(Data(bytes))
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
