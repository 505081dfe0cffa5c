import CHEIF
import WebImage

extension HEIFImageHandle {
    /// The luma bit depth of the coded image (8, 10 or 12).
    var bitDepth: Int { Int(heif.heif_image_handle_get_luma_bits_per_pixel(handle)) }

    /// Decodes a 10- or 12-bit image at its own precision (libheif's `RRGGBB(AA)_LE`) and converts
    /// it to 8-bit sRGB with `transform`, row band by row band from libheif's image into ours; nil
    /// (the caller decodes to 8 bits) when the image has 8 bits, premultiplied alpha, or more
    /// pixels than `allowsWideBuffer` lets libheif hold at 16 bits.
    func decodeWide(maxPixelCount: Int, transform: any WideColorTransform, allowsWideBuffer: (Int) -> Bool) throws
        -> PixelBuffer?
    {
        guard bitDepth > 8, heif.heif_image_handle_is_premultiplied_alpha(handle) == 0,
            allowsWideBuffer(size.pixelCount)
        else { return nil }
        guard let options = heif.heif_decoding_options_alloc() else {
            throw WebImageError(.decodingFailed, "libheif could not allocate decoding options")
        }
        defer { heif.heif_decoding_options_free(options) }
        let alpha = hasAlpha
        let chroma = alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE
        var decoded: OpaquePointer?
        try HEIFStatus.check(
            heif.heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options), while: "decoding a \(size) image")
        guard let decoded else { throw WebImageError(.decodingFailed, "libheif returned no image") }
        defer { heif.heif_image_release(decoded) }
        let width = Int(heif.heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif.heif_image_get_height(decoded, heif_channel_interleaved))
        let bits = Int(heif.heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved))
        let channels = alpha ? 4 : 3
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
            width > 0, height > 0, Int(stride) >= width * channels * 2, (9...16).contains(bits)
        else {
            throw WebImageError(.decodingFailed, "libheif returned no \(bits)-bit RGB plane")
        }
        try PixelBuffer.checkSize(PixelSize(width: width, height: height), maxPixelCount: maxPixelCount)
        let maximum = UInt32(1) << bits - 1
        let bandRows = ImageDecodingOptions.wideBandRowCount
        return try PixelBuffer(width: width, height: height, bandRows: bandRows, transform: transform) { band, firstRow, rows in
            // Samples of `bits` bits, little-endian, rescaled to 16 (rounded), alpha 0xFFFF when absent.
            for row in 0..<rows {
                let source = UnsafeRawPointer(plane + (firstRow + row) * Int(stride))
                var out = row * width * 4
                for x in 0..<width {
                    for channel in 0..<4 {
                        let value: UInt32
                        if channel < channels {
                            let offset = (x * channels + channel) * 2
                            let stored = UInt16(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                            value = (min(UInt32(stored), maximum) * 65535 + maximum / 2) / maximum
                        } else {
                            value = 65535
                        }
                        band[out] = UInt16(value)
                        out += 1
                    }
                }
            }
        }
    }
}
