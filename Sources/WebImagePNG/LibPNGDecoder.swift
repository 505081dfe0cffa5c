import CPNGShim
import Foundation
import WebImage

/// What a PNG's IHDR (and tRNS) declare.
struct PNGHeader: Sendable {
    var size: PixelSize
    var bitDepth: Int
    var colorType: Int
    var interlaced: Bool
    var hasTransparencyChunk: Bool

    /// Whether the image declares alpha: colour type 4 or 6, or a tRNS chunk.
    var hasAlpha: Bool { colorType & 4 != 0 || hasTransparencyChunk }

    /// The header libpng read.
    init(_ raw: webimage_png_header) {
        size = PixelSize(width: Int(raw.width), height: Int(raw.height))
        bitDepth = Int(raw.bit_depth)
        colorType = Int(raw.color_type)
        interlaced = raw.interlaced != 0
        hasTransparencyChunk = raw.has_trns != 0
    }
}

/// Decodes one PNG stream with libpng to 8-bit straight-alpha RGBA.
///
/// Every colour type and bit depth is expanded (palette, grey 1/2/4/8/16, grey+alpha, RGB, RGBA),
/// 16-bit samples keep their high byte (`png_set_strip_16`) unless a colour transform takes them
/// at full precision, tRNS becomes alpha, Adam7 is
/// deinterlaced. No gamma or colour management is applied. Chunks after the image data are never
/// read, so missing or cut trailing chunks do not matter (see ``PNGTruncatedTail``).
///
/// The size is checked against `maxPixelCount` inside the C shim right after libpng has read
/// IHDR (libpng's own user limits refuse an oversized side while reading it), before libpng sizes
/// its row buffers by the image: a 74-byte file declaring 700000000×1 costs no memory.
enum LibPNGDecoder {
    /// Decodes `bytes`, refusing with `tooLarge` an image over `maxPixelCount` pixels before any
    /// memory is allocated for it; `checkSize` then runs with IHDR's size.
    ///
    /// `wideTransform` is asked, with the header, for the transform of a 16-bit image: given one,
    /// the rows are decoded at 16 bits and converted to 8-bit sRGB by it, band by band (the whole
    /// image at once for Adam7, whose passes revisit every row, when `allowsWideBuffer` says it
    /// fits); `converted` is then true.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, maxPixelCount: Int, checkSize: (PixelSize) throws -> Void = { _ in },
        allowsWideBuffer: (Int) -> Bool = { _ in false },
        wideTransform: (PNGHeader) -> (any WideColorTransform)? = { _ in nil }
    ) throws -> (pixels: PixelBuffer, header: PNGHeader, converted: Bool) {
        try withReader(bytes, maxPixelCount: maxPixelCount) { decoder, header in
            try checkSize(header.size)
            let wide =
                header.bitDepth == 16 && (!header.interlaced || allowsWideBuffer(header.size.pixelCount))
                ? wideTransform(header) : nil
            guard webimage_png_decoder_prepare_rgba(decoder, wide == nil ? 0 : 1) == 0 else {
                throw WebImageError.badData("corrupt PNG header: \(message(of: decoder))")
            }
            if let wide { return (try decodeWide(decoder, header: header, transform: wide), header, true) }
            // A failure throws out of the initialiser, so rows never written are never touched;
            // libpng writes every row of a success, so warm storage from the pool is safe.
            let pixels = try PixelBuffer(
                width: header.size.width, height: header.size.height, alphaMode: .straight, storage: .shared
            ) { out in
                guard let destination = out.baseAddress,
                    webimage_png_decoder_read_rgba(decoder, destination, header.size.width * 4) == 0
                else { throw WebImageError.badData("corrupt PNG image data: \(message(of: decoder))") }
            }
            return (pixels, header, false)
        }
    }

    /// The 16-bit rows of a prepared reader converted by `transform`: band by band, or all at once
    /// for an interlaced image.
    private static func decodeWide(_ decoder: OpaquePointer, header: PNGHeader, transform: any WideColorTransform) throws
        -> PixelBuffer
    {
        let width = header.size.width
        let interlaced = webimage_png_decoder_passes(decoder) != 1
        return try PixelBuffer(
            width: width, height: header.size.height,
            bandRows: interlaced ? header.size.height : ImageDecodingOptions.wideBandRowCount, transform: transform
        ) { band, _, rows in
            let raw = UnsafeMutableRawPointer(band.baseAddress)?.assumingMemoryBound(to: UInt8.self)
            let status =
                interlaced
                ? webimage_png_decoder_read_rgba(decoder, raw, width * 8)
                : webimage_png_decoder_read_rows(decoder, raw, width * 8, UInt32(rows))
            guard status == 0 else { throw WebImageError.badData("corrupt PNG image data: \(message(of: decoder))") }
        }
    }

    /// IHDR and tRNS as libpng reads them (every chunk up to the first IDAT), without decoding
    /// or allocating pixels and without a size limit.
    static func readHeader(_ bytes: UnsafeRawBufferPointer) throws -> PNGHeader {
        try withReader(bytes, maxPixelCount: 0) { _, header in header }
    }

    /// Runs `body` with a reader that has read the header; `maxPixelCount` 0 means no limit.
    private static func withReader<T>(
        _ bytes: UnsafeRawBufferPointer, maxPixelCount: Int, _ body: (OpaquePointer, PNGHeader) throws -> T
    ) throws -> T {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw WebImageError.badData("no PNG data (0 bytes)")
        }
        // The cheapest check first, on IHDR's bytes; libpng's limits below stand behind it.
        if maxPixelCount > 0, let size = declaredSize(bytes), size.pixelCount > maxPixelCount {
            throw WebImageError.tooManyPixels(width: size.width, height: size.height, limit: maxPixelCount)
        }
        // Cut inside the last IDAT's CRC: read like a file cut after its image data.
        if let repaired = PNGTruncatedTail.repaired(bytes) {
            return try repaired.withUnsafeBytes { try withReader($0, maxPixelCount: maxPixelCount, body) }
        }
        guard let decoder = webimage_png_decoder_create(base, bytes.count, UInt64(max(0, maxPixelCount))) else {
            throw WebImageError(.decodingFailed, "cannot create a libpng reader")
        }
        defer { webimage_png_decoder_destroy(decoder) }

        var raw = webimage_png_header()
        guard webimage_png_decoder_read_info(decoder, &raw) == 0 else {
            if webimage_png_decoder_too_large(decoder) != 0 {
                let size = declaredSize(bytes).map { "\($0) " } ?? ""
                throw WebImageError(
                    .tooLarge, "PNG \(size)is over the limit of \(maxPixelCount) pixels (\(message(of: decoder)))")
            }
            throw WebImageError.badData("corrupt PNG header: \(message(of: decoder))")
        }
        return try body(decoder, PNGHeader(raw))
    }

    /// The size in the IHDR chunk that must directly follow the signature, if it is there.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer) -> PixelSize? {
        guard bytes.count >= 24, bytes.prefix(8).elementsEqual(pngSignature) else { return nil }
        let reader = PNGChunkReader(bytes: bytes)
        guard reader.uint32(at: 8) == 13, reader.uint32(at: 12) == PNGChunk.IHDR else { return nil }
        return PixelSize(width: Int(reader.uint32(at: 16)), height: Int(reader.uint32(at: 20)))
    }

    private static func message(of decoder: OpaquePointer) -> String {
        String(cString: webimage_png_decoder_message(decoder))
    }
}
