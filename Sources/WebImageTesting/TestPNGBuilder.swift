public import Foundation

/// Builds PNG and APNG files by hand for tests, independently of the code under test: scanlines
/// (with Adam7 when asked), zlib "stored" blocks, chunks with CRC-32.
public enum TestPNG {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }

    public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    public static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    /// A chunk: length, type, data, CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    /// A whole file from chunks.
    public static func file(_ chunks: [[UInt8]]) -> Data { Data(signature + chunks.flatMap { $0 }) }

    public static func ihdr(width: Int, height: Int, bitDepth: Int = 8, colorType: Int = 6, interlaced: Bool = false) -> [UInt8] {
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0])
    }

    /// A zlib stream of "stored" (uncompressed) deflate blocks.
    public static func zlib(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            out.append(final)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }

    /// Filtered (filter type 0) scanlines; `samples(x, y)` gives `channels` values of `bitDepth` bits.
    public static func scanlines(
        width: Int, height: Int, bitDepth: Int, channels: Int, interlaced: Bool = false,
        samples: (Int, Int) -> [Int]
    ) -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            if xs.isEmpty || ys.isEmpty { continue }
            for y in ys {
                out.append(0)
                var row: [UInt8] = []
                var accumulator = 0
                var bits = 0
                for x in xs {
                    for value in samples(x, y) {
                        if bitDepth == 16 {
                            row += be16(UInt16(value))
                        } else if bitDepth == 8 {
                            row.append(UInt8(value))
                        } else {
                            accumulator = accumulator << bitDepth | value
                            bits += bitDepth
                            if bits == 8 {
                                row.append(UInt8(accumulator))
                                accumulator = 0
                                bits = 0
                            }
                        }
                    }
                }
                if bits > 0 { row.append(UInt8((accumulator << (8 - bits)) & 0xFF)) }
                out += row
            }
        }
        return out
    }

    /// A still PNG from straight RGBA8 pixels (colour type 6, optionally interlaced).
    public static func rgba(width: Int, height: Int, interlaced: Bool = false, pixel: (Int, Int) -> [Int]) -> Data {
        let data = scanlines(width: width, height: height, bitDepth: 8, channels: 4, interlaced: interlaced, samples: pixel)
        return file([ihdr(width: width, height: height, interlaced: interlaced), chunk("IDAT", zlib(data)), chunk("IEND", [])])
    }

    /// acTL chunk.
    public static func acTL(frames: Int, plays: Int) -> [UInt8] { chunk("acTL", be32(UInt32(frames)) + be32(UInt32(plays))) }

    /// fcTL chunk.
    public static func fcTL(
        _ sequence: Int, width: Int, height: Int, x: Int = 0, y: Int = 0, delay: (Int, Int) = (1, 10),
        dispose: Int = 0, blend: Int = 0
    ) -> [UInt8] {
        chunk(
            "fcTL",
            be32(UInt32(sequence)) + be32(UInt32(width)) + be32(UInt32(height)) + be32(UInt32(x)) + be32(UInt32(y))
                + be16(UInt16(delay.0)) + be16(UInt16(delay.1)) + [UInt8(dispose), UInt8(blend)])
    }

    /// zlib data of a solid straight-RGBA8 rectangle.
    public static func solid(width: Int, height: Int, _ color: [Int]) -> [UInt8] {
        zlib(scanlines(width: width, height: height, bitDepth: 8, channels: 4) { _, _ in color })
    }

    /// fdAT chunk.
    public static func fdAT(_ sequence: Int, _ data: [UInt8]) -> [UInt8] { chunk("fdAT", be32(UInt32(sequence)) + data) }

    /// The chunk types of a file, in order.
    public static func chunkTypes(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        var types: [String] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }
}
