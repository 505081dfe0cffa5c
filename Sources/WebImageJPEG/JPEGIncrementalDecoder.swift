import Foundation
import WebImage

/// Decodes a JPEG while it arrives, through libjpeg's suspending source (see ``JPEGCoder``).
///
/// Progressive (multi-scan) files run in buffered-image mode: the coefficients of every scan are
/// absorbed as their bytes arrive, and each completed scan renders one image. Baseline files decode
/// their rows as the bytes arrive, into a buffer kept from call to call; an image shows the rows so
/// far and mid-grey below them. Thumbnails decode at the DCT scale a one-shot decode would pick.
final class JPEGIncrementalDecoder: ImageIncrementalDecoding {
    /// The grey of rows not decoded yet (opaque mid-grey, as libjpeg fills missing data).
    static let pendingRowGrey: UInt8 = 128

    private let options: ImageDecodingOptions
    private let colorConverter: (any ColorConverting)?
    /// Made with the first bytes (so that making the decoder cannot fail).
    private var stream: JPEGDecompression?
    private var header: JPEGDecompression.Header?
    private var plan: JPEGDecodePlan?
    private var decodedSize: PixelSize?
    /// Single-scan files: the rows decoded so far, in libjpeg's output space (RGBA or CMYK).
    private var rows: [UInt8] = []
    private var progress = JPEGDecompression.StreamProgress(isMultiScan: false, completedScans: 0, rows: 0, isComplete: false)
    /// What the last image returned showed: rows (single-scan) or scans (multi-scan).
    private var shown = 0
    private var shownFinal = false
    /// The bytes up to the header, kept until it is read: XMP's orientation is read from them
    /// when EXIF states none, as a full decode does.
    private var headBytes = Data()

    init(options: ImageDecodingOptions, colorConverter: (any ColorConverting)? = nil) {
        self.options = options
        self.colorConverter = colorConverter
    }

    var isComplete: Bool { progress.isComplete }

    func append(_ data: Data) throws {
        let decompression = try stream ?? JPEGDecompression(maxPixelCount: options.maxPixelCount, incremental: true)
        stream = decompression
        try decompression.append(data)
        if header == nil { headBytes.append(data) }
        try advance(decompression)
    }

    /// Header, limits and plan, start, then as much data as has arrived.
    private func advance(_ decompression: JPEGDecompression) throws {
        if header == nil {
            guard var read = try decompression.streamHeader() else { return }
            if read.exif.flatMap({ ExifOrientationReader.orientation(inTIFF: $0) }) == nil {
                read.xmpOrientation = headBytes.withUnsafeBytes { JPEGMetadata.xmpOrientation($0) }
            }
            headBytes = Data()
            // The pixel limit, from the header, before libjpeg allocates anything for the image.
            plan = try JPEGDecoder.plan(for: read, options: options, decompression: decompression)
            header = read
        }
        guard let header, let plan else { return }
        if decodedSize == nil {
            guard let started = try decompression.streamStart(numerator: plan.scaleNumerator, cmyk: header.isCMYK)
            else { return }
            guard started.size == plan.decodedSize else {
                throw WebImageError(
                    .decodingFailed, "JPEG: libjpeg decodes to \(started.size), expected \(plan.decodedSize)")
            }
            // Single-scan files decode straight into the rows kept here (the size passed the limit).
            if !started.isMultiScan { rows = [UInt8](repeating: 0, count: started.size.rgbaByteCount) }
            decodedSize = started.size
        }
        guard let size = decodedSize, !progress.isComplete else { return }
        if rows.isEmpty {
            progress = try decompression.consume(rows: nil, size: size)
        } else {
            progress = try rows.withUnsafeMutableBufferPointer { try decompression.consume(rows: $0, size: size) }
        }
    }

    func currentImage() throws -> Image? {
        guard let decompression = stream, let header, let plan, let size = decodedSize, !shownFinal else { return nil }
        let pixels: PixelBuffer
        if progress.isMultiScan {
            guard progress.completedScans > shown || (progress.isComplete && !shownFinal) else { return nil }
            let scan = progress.completedScans
            pixels = try PixelBuffer(width: size.width, height: size.height, alphaMode: options.alphaMode) { buffer in
                try decompression.render(scan: scan, into: buffer, size: size)
                header.convertInks(buffer, options: options, converter: colorConverter)
            }
            shown = scan
        } else {
            guard progress.rows > shown || (progress.isComplete && !shownFinal) else { return nil }
            let decodedBytes = progress.rows * size.width * 4
            pixels = PixelBuffer(width: size.width, height: size.height, alphaMode: options.alphaMode) { buffer in
                rows.withUnsafeBufferPointer { source in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[..<decodedBytes]).initialize(from: source[..<decodedBytes])
                }
                header.convertInks(
                    UnsafeMutableBufferPointer(rebasing: buffer[..<decodedBytes]), options: options, converter: colorConverter)
                let grey = Self.pendingRowGrey
                var i = decodedBytes
                while i < buffer.count {
                    buffer[i] = grey
                    buffer[i + 1] = grey
                    buffer[i + 2] = grey
                    buffer[i + 3] = 255
                    i += 4
                }
            }
            shown = progress.rows
        }
        if progress.isComplete { shownFinal = true }
        return JPEGDecoder.image(from: pixels, header: header, plan: plan, options: options)
    }
}
