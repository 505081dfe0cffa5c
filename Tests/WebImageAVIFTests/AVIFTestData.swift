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

    /// `data` with every `ispe` box's size replaced: a file that declares `width`×`height` but
    /// holds a small picture.
    static func declaringSize(_ data: Data, width: UInt32, height: UInt32) -> Data {
        var bytes = [UInt8](data)
        let tag = Array("ispe".utf8)
        var offset = 4
        while offset + 16 <= bytes.count {
            if bytes[offset..<offset + 4].elementsEqual(tag) {
                // type, version and flags (4), width (4), height (4)
                for (index, value) in [width, height].enumerated() {
                    for byte in 0..<4 {
                        bytes[offset + 8 + index * 4 + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte))
                    }
                }
            }
            offset += 1
        }
        return Data(bytes)
    }
}
