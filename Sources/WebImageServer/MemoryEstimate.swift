import WebImage

/// The peak memory of making one result, estimated from sizes known before anything is decoded:
/// the pixels the decoder allocates (whole, unless the format decodes straight to a smaller
/// size), a premultiplied copy of them when the source may have alpha (the resampler works
/// premultiplied), the image that enters the transforms, the resized result (4 bytes a pixel
/// each, every frame of an animation that stays animated) and the encoder's own working memory,
/// per result pixel and format.
///
/// The encoders' factors were measured (peak resident size of `webimage convert` or `serve` less
/// the decode, the copies, the result and the process's own memory): PNG, GIF and TIFF under 1
/// byte a pixel, JPEG 4.2, WebP 11–15 (lossy, libwebp's YUV planes and analysis) and 26 for
/// noise, AVIF 15.2 (19.7 for a 24 MP JPEG to 8192 × 5461, 1.2 GB in all; 17 for noise), HEIC 16.1
/// (x265) and 30 for noise (a 4 MP noise PNG to 2040 × 2040: `webimage convert` peaked 126 MB
/// above the same conversion to PNG), JPEG XL 70 (libjxl 0.7). Noise is the encoders' worst case
/// and what the flood tests render, so it sets the factors; they are rounded up; unknown formats
/// count as JPEG XL. A 16 MP PNG with alpha rendered at 2040
/// pixels as WebP peaked 215 MB above the idle process against an estimate of 85 MB before the
/// decoder's whole-size buffer, the alpha copy and WebP's factor were counted (issue 24: four at
/// once reached 630 MB under a 300 MB budget).
enum MemoryEstimate {
    /// The encoder's working bytes per result pixel.
    static func encoderBytesPerPixel(_ format: ImageFormat) -> Int {
        switch format {
        case .png, .apng, .gif, .tiff: 1
        case .jpeg: 5
        case .webp: 28
        case .avif: 20
        case .heic, .heif: 32
        case .jpegXL: 72
        default: 72
        }
    }

    /// The pixels a decoder of `format` allocates for one frame of a `displayed` image asked for
    /// within `box`: a JPEG stops at its DCT scale, at most twice the box a side; WebP decodes
    /// straight to the box; the others decode whole and shrink afterwards.
    static func allocatedPixels(format: ImageFormat, displayed: PixelSize, box: PixelSize?) -> PixelSize {
        guard let box else { return displayed }
        switch format {
        case .jpeg:
            return PixelSize(
                width: min(displayed.width, box.width.saturatingMultiply(2)),
                height: min(displayed.height, box.height.saturatingMultiply(2)))
        case .webp:
            return PixelSize(width: min(displayed.width, box.width), height: min(displayed.height, box.height))
        default:
            return displayed
        }
    }

    /// The estimate for a decoder that allocates `allocated` pixels (a frame) and hands `decoded`
    /// pixels to a resize to `result`, encoded as `format`; `frames` frames kept (1 for a still),
    /// `hasAlpha` when the source may have alpha.
    static func peakBytes(
        allocated: PixelSize, decoded: PixelSize, result: PixelSize, format: ImageFormat, frames: Int, hasAlpha: Bool
    ) -> Int {
        let frames = max(1, frames)
        let decoding = allocated.pixelCount.saturatingMultiply(hasAlpha ? 2 : 1)
        let perFrame = decoded.pixelCount.saturatingAdd(result.pixelCount)
        let encoder = result.pixelCount.saturatingMultiply(encoderBytesPerPixel(format))
        return perFrame.saturatingMultiply(frames).saturatingAdd(decoding).saturatingMultiply(4).saturatingAdd(encoder)
    }
}

extension Int {
    fileprivate func saturatingAdd(_ other: Int) -> Int {
        let (value, overflow) = addingReportingOverflow(other)
        return overflow ? .max : value
    }

    fileprivate func saturatingMultiply(_ other: Int) -> Int {
        let (value, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : value
    }
}
