public import Foundation
import WebImage

/// Hand-built hostile images: tiny files that declare huge images or animations, for the limit
/// tests and the fuzz seeds. Every byte is written here (valid CRCs, zlib and LZW streams), so no
/// codec under test builds its own attack.
///
/// A decoder with default ``ImageDecodingOptions`` must refuse each of ``refused`` with `tooLarge`
/// (or `badImageData` for the truncated WebP) before allocating pixels; ``webPLossless(width:height:)``
/// is a valid image within the pixel limit whose header alone must be cheap to read.
///
/// ```swift
/// let bomb = DecompressionBombs.pngStrip()          // 74 bytes declaring 700000000×1
/// #expect(throws: WebImageError.self) { try coders.decode(bomb) }
/// ```
public enum DecompressionBombs {
    /// The bombs a default decode refuses, by name.
    public static var refused: [(name: String, data: Data)] {
        [
            ("png-700000000x1", pngStrip()),
            ("webp-truncated-10000x10000", truncatedWebP()),
            ("gif-canvas-65535x65535", gifCanvas()),
            ("jpeg-65000x65000", jpeg()),
            ("gif-20000-frames", manyFrameGIF()),
            ("apng-5000-frames", manyFrameAPNG()),
        ]
    }

    /// A PNG declaring `width`×`height` RGBA with one tiny IDAT: 74 bytes by default.
    public static func pngStrip(width: Int = 700_000_000, height: Int = 1) -> Data {
        var png = PNGBytes()
        png.chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        png.chunk("IDAT", TestPNG.zlib([0, 0, 0, 0, 0, 0]))
        png.chunk("IEND", [])
        return Data(png.bytes)
    }

    /// A valid lossless WebP of `width`×`height` opaque black pixels in 30 bytes: every Huffman
    /// code has a single symbol, so the pixels take no bits at all.
    public static func webPLossless(width: Int = 10_000, height: Int = 10_000) -> Data {
        var bits = BitWriter()
        bits.write(0x2F, count: 8)  // VP8L signature
        bits.write(width - 1, count: 14)
        bits.write(height - 1, count: 14)
        bits.write(0, count: 1)  // alpha is not used
        bits.write(0, count: 3)  // version 0
        bits.write(0, count: 1)  // no transform
        bits.write(0, count: 1)  // no colour cache
        bits.write(0, count: 1)  // no meta Huffman codes
        // Green, red, blue, alpha, distance: simple codes of one symbol (0, 0, 0, 255, 0).
        for symbol in [0, 0, 0, 255, 0] {
            bits.write(1, count: 1)  // simple code
            bits.write(0, count: 1)  // one symbol
            if symbol < 2 {
                bits.write(0, count: 1)
                bits.write(symbol, count: 1)
            } else {
                bits.write(1, count: 1)
                bits.write(symbol, count: 8)
            }
        }
        return riff(chunk: "VP8L", payload: bits.bytes, declaredPayload: bits.bytes.count)
    }

    /// The header of ``webPLossless(width:height:)`` in a container that declares 4,096 bytes of
    /// image data, of which the file holds the first few: 38 bytes declaring 10000×10000.
    public static func truncatedWebP(width: Int = 10_000, height: Int = 10_000) -> Data {
        let complete = webPLossless(width: width, height: height)
        var payload = [UInt8](complete[20...])
        payload += [UInt8](repeating: 0, count: max(0, 18 - payload.count))
        return riff(chunk: "VP8L", payload: payload, declaredPayload: 4096)
    }

    /// A GIF whose logical screen is `width`×`height`, holding one 1×1 frame.
    public static func gifCanvas(width: Int = 65_535, height: Int = 65_535) -> Data {
        var gif = gifHeader(width: width, height: height)
        gif += onePixelFrame(x: 0, y: 0)
        gif.append(0x3B)
        return Data(gif)
    }

    /// A GIF of `frames` 1×1 frames on a `width`×`height` canvas, looping forever: 23 bytes a
    /// frame (460 KB for the default 20,000 frames of 500×500).
    public static func manyFrameGIF(frames: Int = 20_000, width: Int = 500, height: Int = 500) -> Data {
        var gif = gifHeader(width: width, height: height)
        gif += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        gif.reserveCapacity(gif.count + frames * 23 + 1)
        for index in 0..<frames {
            gif += [0x21, 0xF9, 4, 0x04, 1, 0, 0, 0]  // keep the frame, 10 ms
            gif += onePixelFrame(x: index % width, y: (index / width) % height)
        }
        gif.append(0x3B)
        return Data(gif)
    }

    /// A baseline JPEG whose frame header declares `width`×`height` (greyscale), followed by a
    /// scan of a few bytes.
    public static func jpeg(width: Int = 65_000, height: Int = 65_000) -> Data {
        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)  // DQT
        jpeg += [0xFF, 0xC0, 0x00, 0x0B, 8] + be16(height) + be16(width) + [1, 1, 0x11, 0]  // SOF0
        jpeg += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0]  // SOS
        jpeg += [0x00, 0x00, 0x00, 0x00, 0xFF, 0xD9]
        return Data(jpeg)
    }

    /// An APNG of `frames` 1×1 frames (after a separate default image) on a `width`×`height`
    /// 1-bit grey canvas, looping forever.
    public static func manyFrameAPNG(frames: Int = 5_000, width: Int = 500, height: Int = 500) -> Data {
        var png = PNGBytes()
        png.chunk("IHDR", be32(width) + be32(height) + [1, 0, 0, 0, 0])
        png.chunk("acTL", be32(frames) + be32(0))
        let row = [UInt8](repeating: 0, count: 1 + (width + 7) / 8)
        png.chunk("IDAT", TestPNG.zlib(Array([[UInt8]](repeating: row, count: height).joined())))
        var sequence = 0
        for index in 0..<frames {
            let x = index % width, y = (index / width) % height
            png.chunk("fcTL", be32(sequence) + be32(1) + be32(1) + be32(x) + be32(y) + be16(1) + be16(100) + [0, 0])
            png.chunk("fdAT", be32(sequence + 1) + TestPNG.zlib([0, 0xFF]))
            sequence += 2
        }
        png.chunk("IEND", [])
        return Data(png.bytes)
    }

    // MARK: Byte helpers

    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }

    private static func le32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 24) & 0xFF)]
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    /// A RIFF/WEBP file with one chunk whose size field says `declaredPayload`.
    private static func riff(chunk name: String, payload: [UInt8], declaredPayload: Int) -> Data {
        let padded = declaredPayload + (declaredPayload & 1)
        var bytes = Array("RIFF".utf8) + le32(4 + 8 + padded) + Array("WEBP".utf8)
        bytes += Array(name.utf8) + le32(declaredPayload) + payload
        if payload.count == declaredPayload, declaredPayload & 1 == 1 { bytes.append(0) }
        return Data(bytes)
    }

    /// GIF89a header, a `width`×`height` logical screen and a black-and-white global palette.
    private static func gifHeader(width: Int, height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    }

    /// A 1×1 image at (`x`, `y`) of palette index 0: LZW codes clear, 0, end in 3 bits each.
    private static func onePixelFrame(x: Int, y: Int) -> [UInt8] {
        [0x2C] + le16(x) + le16(y) + le16(1) + le16(1) + [0x00] + [2, 2, 0x44, 0x01, 0]
    }

    /// PNG chunks with their CRCs, after the signature.
    private struct PNGBytes {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

        mutating func chunk(_ type: String, _ data: [UInt8]) {
            let typed = Array(type.utf8) + data
            bytes += DecompressionBombs.be32(data.count) + typed + DecompressionBombs.be32(Int(typed.withUnsafeBytes { CRC32.checksum($0) }))
        }
    }

    /// Bits packed least significant first, as VP8L reads them.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var used = 0

        mutating func write(_ value: Int, count: Int) {
            for bit in 0..<count {
                if used % 8 == 0 { bytes.append(0) }
                if (value >> bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (used % 8)) }
                used += 1
            }
        }
    }
}
