import Foundation
import WebImage
import WebImageTesting
import WebImageWebP

/// Test inputs built by our own encoder or by hand.
enum WebPTestData {
    static let coder = WebPCoder()
    static let straight = ImageDecodingOptions(alphaMode: .straight)

    /// `pixels` encoded as WebP.
    static func encode(_ pixels: PixelBuffer, lossless: Bool, quality: Double = 0.9) throws -> Data {
        let options = ImageEncodingOptions(quality: quality, lossless: lossless)
        return try coder.encode(Image(pixels: pixels), as: .webp, options: options)
    }

    /// A moving-square animation encoded as WebP.
    static func animation(frames: Int = 4, duration: Double = 0.1, loopCount: Int = 0, lossless: Bool = true) throws
        -> Data
    {
        let image = ImageFixtures.animation(frames: frames, duration: duration, loopCount: loopCount)
        return try coder.encode(image, as: .webp, options: ImageEncodingOptions(lossless: lossless))
    }

    static func le32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }

    static func le24(_ value: Int) -> [UInt8] { Array(le32(value).prefix(3)) }

    /// A RIFF chunk: four-character tag, little-endian size, payload, pad byte if odd.
    static func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
        Array(tag.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// A RIFF/WEBP file made of `chunks`.
    static func riff(_ chunks: [[UInt8]]) -> Data {
        let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    /// A `VP8X` chunk with `flags` and a canvas of `width` × `height`.
    static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        chunk("VP8X", [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    /// The chunks after the `WEBP` tag of a simple (non-extended) file.
    static func chunks(of data: Data) -> [UInt8] { Array(data.dropFirst(12)) }

    /// A little-endian TIFF/EXIF payload whose IFD0 holds only an orientation tag.
    static func exif(orientation: Int, bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? le32(v).reversed() : le32(v) }
        let header: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
        return header + u16(1) + u16(274) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
    }
}
