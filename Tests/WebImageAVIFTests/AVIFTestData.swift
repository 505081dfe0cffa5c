import Foundation
import WebImage
import WebImageAVIF
import WebImageTesting

/// AVIF fixtures, made by our own encoder at test time.
enum AVIFTestData {
    /// Fast settings: tests need valid files, not small ones.
    static func encode(_ pixels: PixelBuffer, quality: Double = 0.8, lossless: Bool = false, speed: Int = 10) throws -> Data {
        try AVIFCoder().encode(
            Image(pixels: pixels), as: .avif, options: ImageEncodingOptions(quality: quality, lossless: lossless, speed: speed))
    }

    /// An image sequence of `frames` moving-square frames of 32×32, each `duration` seconds.
    static func animation(frames: Int, duration: Double = 0.1, lossless: Bool = false) throws -> Data {
        try AVIFCoder().encode(
            ImageFixtures.animation(frames: frames, duration: duration), as: .avif,
            options: ImageEncodingOptions(quality: 0.9, lossless: lossless, speed: 10))
    }
}
