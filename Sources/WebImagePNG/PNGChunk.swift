import Foundation
import WebImage

/// The eight bytes every PNG starts with.
let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

/// One chunk of a PNG stream, located by offsets into the stream's bytes.
struct PNGChunk: Sendable {
    /// The four-letter type as a big-endian integer (`PNGChunk.type("IDAT")`).
    let type: UInt32
    /// Offset of the chunk's length field.
    let offset: Int
    /// Length of the data field.
    let length: Int

    /// The data field's range in the stream.
    var dataRange: Range<Int> { (offset + 8)..<(offset + 8 + length) }
    /// The whole chunk (length, type, data, CRC).
    var fullRange: Range<Int> { offset..<(offset + 12 + length) }

    static func type(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { b in UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]) }
    }

    static let IHDR = type("IHDR")
    static let PLTE = type("PLTE")
    static let tRNS = type("tRNS")
    static let IDAT = type("IDAT")
    static let IEND = type("IEND")
    static let acTL = type("acTL")
    static let fcTL = type("fcTL")
    static let fdAT = type("fdAT")
}

/// Walks the chunks of a PNG stream without decoding them.
///
/// Stops quietly at the first chunk that does not fit in the bytes (truncated files): what is
/// missing is for libpng to report when the image data runs short.
struct PNGChunkReader {
    let bytes: UnsafeRawBufferPointer

    func uint32(at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    func uint16(at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    /// Every complete chunk after the signature, up to and including `IEND`.
    func chunks() -> [PNGChunk] {
        var result: [PNGChunk] = []
        var offset = pngSignature.count
        while offset + 12 <= bytes.count {
            let length = Int(uint32(at: offset))
            guard length <= 0x7FFF_FFFF, length <= bytes.count - offset - 12 else { break }
            let chunk = PNGChunk(type: uint32(at: offset + 4), offset: offset, length: length)
            result.append(chunk)
            if chunk.type == PNGChunk.IEND { break }
            offset += 12 + length
        }
        return result
    }

    /// Whether the stored CRC matches the chunk's type and data.
    func hasValidCRC(_ chunk: PNGChunk) -> Bool {
        let covered = UnsafeRawBufferPointer(rebasing: bytes[(chunk.offset + 4)..<(chunk.offset + 8 + chunk.length)])
        return CRC32.checksum(covered) == uint32(at: chunk.offset + 8 + chunk.length)
    }
}

/// Appends PNG chunks (length, type, data, CRC) to a byte array.
struct PNGChunkWriter {
    var bytes: [UInt8] = []

    mutating func appendSignature() { bytes.append(contentsOf: pngSignature) }

    mutating func append(type: UInt32, data: UnsafeRawBufferPointer) {
        appendUInt32(UInt32(data.count))
        let start = bytes.count
        appendUInt32(type)
        bytes.append(contentsOf: data)
        let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        appendUInt32(crc)
    }

    mutating func append(type: UInt32, data: [UInt8]) {
        data.withUnsafeBytes { append(type: type, data: $0) }
    }

    /// Appends bytes that are already whole chunks.
    mutating func appendRaw(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    mutating func appendUInt32(_ value: UInt32) {
        bytes.append(UInt8(value >> 24))
        bytes.append(UInt8((value >> 16) & 0xFF))
        bytes.append(UInt8((value >> 8) & 0xFF))
        bytes.append(UInt8(value & 0xFF))
    }
}

extension Array where Element == UInt8 {
    mutating func appendUInt32BE(_ value: UInt32) {
        append(UInt8(value >> 24))
        append(UInt8((value >> 16) & 0xFF))
        append(UInt8((value >> 8) & 0xFF))
        append(UInt8(value & 0xFF))
    }

    mutating func appendUInt16BE(_ value: UInt16) {
        append(UInt8(value >> 8))
        append(UInt8(value & 0xFF))
    }
}
