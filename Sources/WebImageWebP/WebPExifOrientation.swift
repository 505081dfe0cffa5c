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
        let tiff = [UInt8](UnsafeBufferPointer(start: payload, count: chunk.chunk.size))
        return ExifOrientationReader.orientation(inTIFF: tiff) ?? .up
    }
}
