import CJPEGShim
import WebImage

/// One libjpeg decompression, through the C shim that owns the setjmp/longjmp error handling.
///
/// Every libjpeg failure comes back as a status code and is turned into a ``WebImageError`` here.
/// The JPEG bytes passed to ``readHeader(_:)`` must stay valid until the object is released.
final class JPEGDecompression {
    /// Progressive files with more scans than this are rejected: real encoders write about ten, and
    /// thousands of tiny scans are a known way to make a small file take minutes to decode.
    static let maxScans: Int32 = 500

    let decoder: OpaquePointer

    /// The colour model and markers read by ``readHeader(_:)``.
    struct Header {
        var size: PixelSize
        var color: webimage_jpeg_color
        /// CMYK/YCCK samples are stored inverted (Adobe APP14 convention).
        var isAdobeInverted: Bool
        var isProgressive: Bool
        /// The TIFF payload of the EXIF APP1 segment, if any.
        var exif: [UInt8]?
        /// The ICC profile of the APP2 segments, if whole.
        var colorProfile: ColorProfile?
        /// XMP's `tiff:Orientation`, read when the EXIF segment states none.
        var xmpOrientation: ImageOrientation?

        /// Whether the samples are CMYK (or YCCK, which libjpeg turns into CMYK).
        var isCMYK: Bool { color == WEBIMAGE_JPEG_COLOR_CMYK || color == WEBIMAGE_JPEG_COLOR_YCCK }
    }

    /// Creates a decompression whose libjpeg allocations stay in proportion to `maxPixelCount`;
    /// an `incremental` one reads the bytes given to ``append(_:)`` through a suspending source.
    init(maxPixelCount: Int, incremental: Bool = false) throws {
        // libjpeg's largest buffers are the coefficient arrays of progressive files: 2 bytes per
        // sample, at most 4 components. Twice that plus working memory never refuses an image that
        // passed the pixel limit, but bounds odd sampling layouts.
        let (samples, overflow) = max(0, maxPixelCount).multipliedReportingOverflow(by: 16)
        let bound = overflow || samples > Int.max - (64 << 20) ? 0 : samples + (64 << 20)
        let made =
            incremental
            ? webimage_jpeg_decoder_create_incremental(bound, Self.maxScans)
            : webimage_jpeg_decoder_create(bound, Self.maxScans)
        guard let decoder = made else {
            throw WebImageError(.decodingFailed, "JPEG: cannot create a libjpeg decompressor")
        }
        self.decoder = decoder
    }

    deinit {
        webimage_jpeg_decoder_destroy(decoder)
    }

    /// Reads the markers up to the first scan.
    func readHeader(_ bytes: UnsafeRawBufferPointer) throws -> Header {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw WebImageError.badData("JPEG: no data") }
        var header = webimage_jpeg_header()
        try check(webimage_jpeg_read_header(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count, &header))
        var read = self.header(header)
        if read.exif.flatMap({ ExifOrientationReader.orientation(inTIFF: $0) }) == nil {
            read.xmpOrientation = JPEGMetadata.xmpOrientation(bytes)
        }
        return read
    }

    /// The header libjpeg read, with the ICC profile of the APP2 segments it kept.
    func header(_ raw: webimage_jpeg_header) -> Header {
        var header = Header(raw)
        header.colorProfile = colorProfile()
        return header
    }

    /// The size libjpeg would decode to at `numerator`/8, without decoding.
    func scaledSize(numerator: Int) throws -> PixelSize {
        var width: UInt32 = 0
        var height: UInt32 = 0
        try check(webimage_jpeg_scaled_size(decoder, UInt32(numerator), &width, &height))
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// After ``scaledSize(numerator:)``: the identifiers of the components whose every 8×8 block
    /// becomes one pixel at that scale, so that only their DC coefficients are read.
    func dcOnlyComponents() -> Set<UInt8> {
        var identifiers = [Int32](repeating: 0, count: 4)
        var sizes = [Int32](repeating: 0, count: 4)
        let count = Int(webimage_jpeg_component_scales(decoder, &identifiers, &sizes, 4))
        guard count <= 4 else { return [] }
        return Set((0..<count).filter { sizes[$0] == 1 }.map { UInt8(truncatingIfNeeded: identifiers[$0]) })
    }

    /// Turns block smoothing of progressive files off (it is on by default): a stream whose unused
    /// AC scans were left out must not have them guessed.
    func disableBlockSmoothing() {
        webimage_jpeg_set_block_smoothing(decoder, 0)
    }

    /// Tells the next ``start(numerator:cmyk:)`` that the stream has no AC scans for
    /// `components` (``JPEGScanFilter`` left them out): those whose blocks become one pixel keep
    /// their DC coefficients alone, in a 64th of the memory; see `webimage_jpeg_store_dc_only`.
    func storeDCOnly(_ components: Set<UInt8>) {
        let identifiers = components.sorted().map { Int32($0) }
        webimage_jpeg_store_dc_only(decoder, identifiers, Int32(identifiers.count))
    }

    /// How many components the last ``start(numerator:cmyk:)`` stored DC-only.
    var dcOnlyArrays: Int {
        Int(webimage_jpeg_dc_only_arrays(decoder))
    }

    /// Starts decompressing at `numerator`/8 into 4-byte pixels: RGBA, or CMYK when `cmyk`.
    func start(numerator: Int, cmyk: Bool) throws -> PixelSize {
        var width: UInt32 = 0
        var height: UInt32 = 0
        let output = cmyk ? WEBIMAGE_JPEG_OUTPUT_CMYK : WEBIMAGE_JPEG_OUTPUT_RGBA
        try check(webimage_jpeg_start(decoder, UInt32(numerator), output, &width, &height))
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Decodes every scanline into `pixels`, rows of `size.width * 4` bytes.
    func readPixels(into pixels: UnsafeMutableBufferPointer<UInt8>, size: PixelSize) throws {
        guard let base = pixels.baseAddress, pixels.count >= size.rgbaByteCount else {
            throw WebImageError(.decodingFailed, "JPEG: pixel buffer too small for \(size)")
        }
        try check(webimage_jpeg_read_pixels(decoder, base, size.width * 4, size.height))
    }

    /// Reads the markers after the image up to EOI, so that corruption there is reported.
    func finish() throws {
        try check(webimage_jpeg_finish(decoder))
    }

    /// Turns a failed shim status (-1) into the ``WebImageError`` its failure kind calls for.
    func check(_ status: Int32) throws {
        guard status < 0 else { return }
        let message = "JPEG: " + String(cString: webimage_jpeg_decoder_message(decoder))
        switch webimage_jpeg_decoder_failure(decoder) {
        case WEBIMAGE_JPEG_FAILURE_TOO_LARGE: throw WebImageError(.tooLarge, message)
        case WEBIMAGE_JPEG_FAILURE_UNSUPPORTED: throw WebImageError(.decodingFailed, message)
        default: throw WebImageError.badData(message)
        }
    }
}

extension JPEGDecompression.Header {
    /// The header the shim filled in.
    init(_ header: webimage_jpeg_header) {
        var exif: [UInt8]?
        if let payload = header.exif, header.exif_length > 0 {
            exif = Array(UnsafeBufferPointer(start: payload, count: header.exif_length))
        }
        self.init(
            size: PixelSize(width: Int(header.width), height: Int(header.height)),
            color: header.color,
            isAdobeInverted: header.saw_adobe_marker != 0,
            isProgressive: header.progressive != 0,
            exif: exif)
    }
}
