import WebImage

/// The peak memory of making one result, estimated from sizes known before anything is decoded:
/// the decoded image, the resized result (4 bytes a pixel each, every frame of an animation
/// that stays animated) and the encoder's own working memory, per result pixel and format.
///
/// The encoders' factors were measured (`/usr/bin/time` peak resident size of `webimage convert`
/// of a 16 MP WebP to 4096 × 4096, less the decode, the result and the process's own 25 MB):
/// PNG, WebP, GIF and TIFF under 1 byte a pixel, JPEG 4.2, AVIF 15.2 (19.7 for a 24 MP JPEG to
/// 8192 × 5461, 1.2 GB in all), HEIC 16.1 (x265), JPEG XL 70 (libjxl 0.7). They are rounded up;
/// unknown formats count as JPEG XL.
enum MemoryEstimate {
    /// The encoder's working bytes per result pixel.
    static func encoderBytesPerPixel(_ format: ImageFormat) -> Int {
        switch format {
        case .png, .apng, .webp, .gif, .tiff: 1
        case .jpeg: 5
        case .avif: 20
        case .heic, .heif: 17
        case .jpegXL: 72
        default: 72
        }
    }

    /// The estimate for decoding `decoded` pixels (a frame) into a `result`-sized image in
    /// `format`, `frames` frames kept (1 for a still).
    static func peakBytes(decoded: PixelSize, result: PixelSize, format: ImageFormat, frames: Int) -> Int {
        let frames = max(1, frames)
        let perFrame = decoded.pixelCount.saturatingAdd(result.pixelCount).saturatingMultiply(4)
        let encoder = result.pixelCount.saturatingMultiply(encoderBytesPerPixel(format))
        return perFrame.saturatingMultiply(frames).saturatingAdd(encoder)
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
