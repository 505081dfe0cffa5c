import CWebP
import WebImage

/// Reads the EXIF orientation (TIFF tag 274) from a WebP file's `EXIF` chunk.
///
/// The orientation is exposed on ``Image/orientation`` and never applied to the pixels.
enum WebPExifOrientation {
    /// The VP8X feature flag that announces an `EXIF` chunk.
    static let exifFlag: UInt8 = 0x08

    /// The orientation stored in `bytes` (a whole WebP file), or `.up` when there is none or the
    /// chunk is malformed.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        // Only extended files (VP8X) can carry EXIF; skip the demuxer unless the flag is set.
        guard bytes.count > 20, bytes[12] == 0x56, bytes[13] == 0x50, bytes[14] == 0x38, bytes[15] == 0x58,
            bytes[20] & exifFlag != 0, let base = bytes.baseAddress
        else { return .up }
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return .up }
        defer { WebPDemuxDelete(demuxer) }
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "EXIF", 1, &chunk) != 0 else { return .up }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let payload = chunk.chunk.bytes else { return .up }
        return orientation(inTIFF: UnsafeRawBufferPointer(start: payload, count: chunk.chunk.size))
    }

    /// The orientation in a TIFF-structured EXIF payload (optionally prefixed by `Exif\0\0`).
    static func orientation(inTIFF payload: UnsafeRawBufferPointer) -> ImageOrientation {
        var tiff = payload
        let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        if tiff.count >= 6 && tiff.prefix(6).elementsEqual(exifPrefix) {
            tiff = UnsafeRawBufferPointer(rebasing: tiff[6...])
        }
        guard tiff.count >= 8 else { return .up }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return .up
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let (a, b) = (Int(tiff[offset]), Int(tiff[offset + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
            return littleEndian ? first | second << 16 : first << 16 | second
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return .up }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return .up }
            // Tag 274, type SHORT (3), count 1: the value sits in the first two value bytes.
            if tag == 274, u16(entry + 2) == 3, let value = u16(entry + 8) {
                return ImageOrientation(rawValue: value) ?? .up
            }
        }
        return .up
    }
}
