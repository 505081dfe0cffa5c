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
}

/// Decodes one PNG stream with libpng to 8-bit straight-alpha RGBA.
///
/// Every colour type and bit depth is expanded (palette, grey 1/2/4/8/16, grey+alpha, RGB, RGBA),
/// 16-bit samples keep their high byte (`png_set_strip_16`), tRNS becomes alpha, Adam7 is
/// deinterlaced. No gamma or colour management is applied. Chunks after the image data are never
/// read, so missing or cut trailing chunks do not matter (see ``PNGTruncatedTail``).
enum LibPNGDecoder {
    /// Decodes `bytes`; `checkSize` runs with IHDR's size before any pixel memory is allocated.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, checkSize: (PixelSize) throws -> Void
    ) throws -> (pixels: PixelBuffer, header: PNGHeader) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw WebImageError.badData("no PNG data (0 bytes)")
        }
        // Cut inside the last IDAT's CRC: read like a file cut after its image data.
        if let repaired = PNGTruncatedTail.repaired(bytes) {
            return try repaired.withUnsafeBytes { try decode($0, checkSize: checkSize) }
        }
        guard let decoder = webimage_png_decoder_create(base, bytes.count) else {
            throw WebImageError(.decodingFailed, "cannot create a libpng reader")
        }
        defer { webimage_png_decoder_destroy(decoder) }

        var raw = webimage_png_header()
        guard webimage_png_decoder_read_header(decoder, &raw) == 0 else {
            throw WebImageError.badData("corrupt PNG header: \(message(of: decoder))")
        }
        let header = PNGHeader(
            size: PixelSize(width: Int(raw.width), height: Int(raw.height)),
            bitDepth: Int(raw.bit_depth), colorType: Int(raw.color_type), interlaced: raw.interlaced != 0,
            hasTransparencyChunk: raw.has_trns != 0)
        try checkSize(header.size)

        var status: Int32 = -1
        let pixels = PixelBuffer(width: header.size.width, height: header.size.height, alphaMode: .straight) { out in
            guard let destination = out.baseAddress else { return }
            status = webimage_png_decoder_read_rgba(decoder, destination, header.size.width * 4)
        }
        guard status == 0 else {
            throw WebImageError.badData("corrupt PNG image data: \(message(of: decoder))")
        }
        return (pixels, header)
    }

    private static func message(of decoder: OpaquePointer) -> String {
        String(cString: webimage_png_decoder_message(decoder))
    }
}
