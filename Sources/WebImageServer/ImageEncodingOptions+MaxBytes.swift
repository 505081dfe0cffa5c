public import WebImage

extension ImageEncodingOptions {
    /// The lowest quality `mb:` searches down to before it shrinks the image (0.1, imgproxy's floor).
    public static let maxBytesQualityFloor = 0.1
    /// The shorter side `mb:` shrinks an image to at most (16 pixels).
    public static let maxBytesMinimumSide = 16

    /// These options with `mb:BYTES` (`max_bytes`, the CLI's `--max-bytes`) for an output in
    /// `format`: for a lossy output (``WebImage/ImageCodersManager/Encoding/isLossy(_:options:)``)
    /// the core's file-size search, from this quality down to ``maxBytesQualityFloor``, then
    /// smaller by steps of 0.75 until the shorter side would go under ``maxBytesMinimumSide``; a
    /// budget even that misses gets that smallest encode rather than an error. Lossless outputs
    /// (PNG, GIF, lossless WebP…) and a `nil` budget leave the options as they are.
    ///
    /// ```swift
    /// let options = ImageEncodingOptions(quality: 0.8).budgeted(maxBytes: 20_000, for: .jpeg)
    /// ```
    public func budgeted(maxBytes: Int?, for format: ImageFormat) -> ImageEncodingOptions {
        guard let maxBytes, maxBytes > 0, ImageCodersManager.Encoding.isLossy(format, options: self) else { return self }
        var options = self
        options.maxFileSize = maxBytes
        options.maxFileSizeQualityFloor = min(quality, Self.maxBytesQualityFloor)
        options.maxFileSizeMinimumSide = Self.maxBytesMinimumSide
        options.acceptsSmallestOverMaxFileSize = true
        return options
    }
}
