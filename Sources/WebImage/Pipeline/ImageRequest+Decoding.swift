extension ImageRequest {
    /// How a request's bytes are decoded (SDWebImage's `imageThumbnailPixelSize`,
    /// `imagePreserveAspectRatio`, `imageScaleFactor`, `imageScaleDownLimitBytes` and `imageCoder`
    /// context entries). The on/off decoding switches stay flags: ``Options/decodeFirstFrameOnly``,
    /// ``Options/scaleDownLargeImages`` and ``Options/preloadAllFrames``.
    ///
    /// The thumbnail size and aspect are part of the cache key; the scale factor and the
    /// scale-down limit are not (as in SDWebImage), but requests that differ in them never share
    /// a decode.
    ///
    /// ```swift
    /// var request = ImageRequest(url: url)
    /// request.decoding.thumbnailPixelSize = PixelSize(width: 256, height: 256)
    /// request.decoding.scaleFactor = 2
    /// ```
    public struct Decoding: Sendable {
        /// Decode to at most this size; part of the cache key (`imageThumbnailPixelSize`).
        public var thumbnailPixelSize: PixelSize?
        /// Whether a thumbnail keeps the aspect ratio (`imagePreserveAspectRatio`, default true);
        /// part of the cache key when a thumbnail size is set.
        public var preserveAspectRatio = true
        /// Points per pixel of the result (`imageScaleFactor`).
        public var scaleFactor: Double = 1
        /// The decoded-bytes limit for ``Options/scaleDownLargeImages`` (`imageScaleDownLimitBytes`,
        /// default 60 MB); not part of the cache key.
        public var scaleDownLimitBytes: Int?
        /// The coder to decode with instead of the manager's coders (`imageCoder`); a request with
        /// one shares no job with others.
        public var coder: (any ImageCoding)?

        /// The defaults: full size, scale 1, no scale-down limit, the manager's coders.
        public init() {}
    }
}
