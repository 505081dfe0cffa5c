import WebImage

/// PNG files whose image data is complete but whose end is missing.
///
/// libpng reads a PNG only as far as the end of its image data, so a file whose trailing chunks
/// are missing or cut (no `IEND`, a `tEXt` after the `IDAT` chunks cut short) already decodes,
/// as browsers and Pillow show it. The one cut it would refuse is inside the CRC of the last
/// `IDAT` chunk, whose data (the end of the zlib stream) is all there: such a stream gets its CRC
/// back, computed, and an `IEND`, so that libpng reads it like any file cut after its image data.
/// The zlib stream itself is still checked to its end: a stream that is cut, or that ends short of
/// the image, remains `badImageData`.
enum PNGTruncatedTail {
    /// A repaired copy of `bytes` when they end inside the CRC of an `IDAT` chunk whose data is
    /// complete (and the CRC bytes present agree with the data); nil otherwise, including for
    /// files that need no repair.
    static func repaired(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        let reader = PNGChunkReader(bytes: bytes)
        var offset = pngSignature.count
        while offset + 8 <= bytes.count {
            let length = Int(reader.uint32(at: offset))
            let type = reader.uint32(at: offset + 4)
            guard length <= 0x7FFF_FFFF, length <= bytes.count - offset - 8 else { return nil }  // data cut
            let dataEnd = offset + 8 + length
            if dataEnd + 4 <= bytes.count {
                if type == PNGChunk.IEND { return nil }
                offset = dataEnd + 4
                continue
            }
            // The stream ends inside this chunk's CRC.
            guard type == PNGChunk.IDAT else { return nil }
            let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<dataEnd]))
            let expected = [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
            for (index, byte) in bytes[dataEnd...].enumerated() where byte != expected[index] { return nil }
            var writer = PNGChunkWriter()
            writer.appendRaw(UnsafeRawBufferPointer(rebasing: bytes[..<dataEnd]))
            writer.bytes.append(contentsOf: expected)
            writer.append(type: PNGChunk.IEND, data: [])
            return writer.bytes
        }
        return nil
    }
}
