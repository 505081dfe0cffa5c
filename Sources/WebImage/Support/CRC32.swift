/// CRC-32 as PNG chunks (and zlib) use it: ISO 3309, reflected polynomial 0xEDB88320.
///
/// One implementation for the PNG coder, the test kit's hand-built files and the fuzz harness.
///
/// ```swift
/// let crc = bytes.withUnsafeBytes { CRC32.checksum($0) }
/// ```
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    package static func checksum(_ bytes: UnsafeRawBufferPointer, startingWith crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        table.withUnsafeBufferPointer { t in
            for byte in bytes { c = t[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }
}
