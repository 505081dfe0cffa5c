import CJPEGShim
import Foundation
import WebImage

/// The incremental side of a ``JPEGDecompression`` made with `incremental: true`: bytes are
/// appended as they arrive and each step returns `nil` ("suspended") when it needs more of them.
extension JPEGDecompression {
    /// What the decompression has got through so far.
    struct StreamProgress {
        /// Several scans (progressive): images come per completed scan.
        var isMultiScan: Bool
        /// Multi-scan files: the scans whose data is all in.
        var completedScans: Int
        /// Single-scan files: the rows decoded so far.
        var rows: Int
        /// The end of the image has been read.
        var isComplete: Bool
    }

    /// Appends the next bytes (copied).
    func append(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            try check(webimage_jpeg_stream_append(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count))
        }
    }

    /// The markers up to the first scan, or `nil` until they are all in.
    func streamHeader() throws -> Header? {
        var header = webimage_jpeg_header()
        let status = webimage_jpeg_stream_read_header(decoder, &header)
        try check(status)
        return status == 1 ? self.header(header) : nil
    }

    /// Starts decompressing at `numerator`/8 into 4-byte pixels (CMYK when `cmyk`): the output size
    /// and whether the file has several scans, or `nil` until it can start.
    func streamStart(numerator: Int, cmyk: Bool) throws -> (size: PixelSize, isMultiScan: Bool)? {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var multiScan: Int32 = 0
        let output = cmyk ? WEBIMAGE_JPEG_OUTPUT_CMYK : WEBIMAGE_JPEG_OUTPUT_RGBA
        let status = webimage_jpeg_stream_start(decoder, UInt32(numerator), output, &width, &height, &multiScan)
        try check(status)
        return status == 1 ? (PixelSize(width: Int(width), height: Int(height)), multiScan != 0) : nil
    }

    /// Consumes the bytes appended so far; single-scan files decode their rows into `rows`
    /// (the same buffer every time, rows of `size.width * 4` bytes).
    func consume(rows: UnsafeMutableBufferPointer<UInt8>?, size: PixelSize) throws -> StreamProgress {
        var progress = webimage_jpeg_stream_progress()
        try check(webimage_jpeg_stream_consume(decoder, rows?.baseAddress, size.width * 4, size.height, &progress))
        return StreamProgress(
            isMultiScan: progress.multi_scan != 0, completedScans: Int(progress.completed_scans),
            rows: Int(progress.rows), isComplete: progress.complete != 0)
    }

    /// Multi-scan files: renders the image as of scan `scan` into `pixels` (every row).
    func render(scan: Int, into pixels: UnsafeMutableBufferPointer<UInt8>, size: PixelSize) throws {
        guard let base = pixels.baseAddress, pixels.count >= size.rgbaByteCount else {
            throw WebImageError(.decodingFailed, "JPEG: pixel buffer too small for \(size)")
        }
        try check(webimage_jpeg_stream_render(decoder, Int32(scan), base, size.width * 4, size.height))
    }
}
