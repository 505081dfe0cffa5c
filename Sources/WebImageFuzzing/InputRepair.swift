import Foundation
import WebImage

/// Repairs the checksums and sizes that random mutations break, so the fuzzer's inputs reach the
/// decoders' interesting code instead of stopping at the first integrity check.
enum InputRepair {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `data` with the CRC of every whole PNG chunk recomputed (libpng and our APNG reader
    /// reject a chunk whose CRC is wrong). Anything that is not a PNG comes back unchanged; a
    /// truncated last chunk is left as it is.
    static func pngCRCsRepaired(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        guard bytes.starts(with: pngSignature) else { return data }
        var offset = pngSignature.count
        while offset + 12 <= bytes.count {
            let length = Int(bigEndian32(bytes, at: offset))
            let crcOffset = offset + 8 + length
            guard length <= bytes.count, crcOffset + 4 <= bytes.count else { break }
            let crc = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(offset + 4)..<crcOffset])) }
            bytes.replaceSubrange(crcOffset..<(crcOffset + 4), with: withUnsafeBytes(of: crc.bigEndian, Array.init))
            offset = crcOffset + 4
        }
        return Data(bytes)
    }

    /// `data` with a `RIFF…WEBP` container's size field set to the bytes that follow it (libwebp
    /// refuses a container whose size disagrees with the data). Anything else comes back unchanged.
    static func riffSizeRepaired(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8),
            let size = UInt32(exactly: bytes.count - 8)
        else { return data }
        bytes.replaceSubrange(4..<8, with: withUnsafeBytes(of: size.littleEndian, Array.init))
        return Data(bytes)
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
