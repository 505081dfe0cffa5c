import CWebP
import WebImage

/// What `WebPGetFeatures` reports about a file's header.
struct WebPHeader {
    /// The image size (the canvas size for animations).
    var size: PixelSize
    var hasAlpha: Bool
    var isAnimated: Bool

    /// Reads the header. A header that announces a size but is followed by too little data still
    /// reports its size through `status`, so that the pixel limit can be checked first.
    static func read(_ bytes: UnsafeRawBufferPointer) -> (header: WebPHeader?, status: VP8StatusCode) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (nil, VP8_STATUS_NOT_ENOUGH_DATA) }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard features.width > 0, features.height > 0 else { return (nil, status) }
        let header = WebPHeader(
            size: PixelSize(width: Int(features.width), height: Int(features.height)),
            hasAlpha: features.has_alpha != 0, isAnimated: features.has_animation != 0)
        return (header, status)
    }
}

/// Decodes still WebP images (lossy `VP8`, lossless `VP8L`, extended `VP8X` with `ALPH`) with
/// `WebPDecode` straight into a ``PixelBuffer``.
enum WebPStillDecoder {
    /// Decodes `bytes` at `target` size (libwebp scales while decoding when it differs from the
    /// header's size), as straight RGBA.
    ///
    /// libwebp's own premultiplied output (`MODE_rgbA`) rounds differently from
    /// ``PixelBuffer/premultiplied()``, so the decoder always produces straight alpha and the
    /// caller converts.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: WebPHeader, target: PixelSize) throws -> PixelBuffer {
        guard let base = bytes.baseAddress else { throw WebImageError.badData("no WebP data") }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw WebImageError(.decodingFailed, "libwebp version mismatch (WebPInitDecoderConfig)")
        }
        if target != header.size {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(target.width)
            config.options.scaled_height = Int32(target.height)
        }
        defer { WebPFreeDecBuffer(&config.output) }
        // A failure throws out of the initialiser: the rows libwebp never wrote are never touched
        // (zero-filling them would make a 38-byte file cost the whole bitmap in memory).
        // A success writes every row, so warm storage from the pool is safe.
        return try PixelBuffer(width: target.width, height: target.height, alphaMode: .straight, storage: .shared) { out in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(target.width * 4)
            config.output.u.RGBA.size = out.count
            let status = WebPDecode(base.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            if let error = WebPStatus.error(for: status, while: "decoding \(header.size) image") { throw error }
        }
    }
}
