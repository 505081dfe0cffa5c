extension ImageRequest {
    /// How a request's bytes are decoded (SDWebImage's `imageThumbnailPixelSize`,
    /// `imagePreserveAspectRatio`, `imageScaleFactor`, `imageScaleDownLimitBytes` and `imageCoder`
    /// context entries). The on/off decoding switches stay flags: ``Options/decodeFirstFrameOnly``,
    /// ``Options/scaleDownLargeImages`` and ``Options/preloadAllFrames``.
    ///
    /// The thumbnail size and aspect, a draft, a premultiplied decode and a colour policy other
    /// than sRGB are part of the cache
    /// key; the scale factor, the scale-down limit and the pixel limits are not (as in SDWebImage),
    /// but requests that differ in them never share a decode.
    ///
    /// ```swift
    /// var request = ImageRequest(url: url)
    /// request.decoding.thumbnailPixelSize = PixelSize(width: 256, height: 256)
    /// request.decoding.scaleFactor = 2
    /// request.decoding.maxPixelCount = 24_000_000   // refuse larger sources before decoding
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
        /// With a ``thumbnailPixelSize``: stop at the decoder's cheapest reduced size that covers
        /// the box (JPEG's DCT scaling) for a transformer that resizes after, so the pixels are
        /// resampled once (``ImageDecodingOptions/draft``). Part of the cache key (`-Draft`).
        public var draft = false
        /// The alpha representation of the decoded pixels (``ImageDecodingOptions/alphaMode``);
        /// `.premultiplied` is part of the cache key (`-Premultiplied`).
        public var alphaMode: AlphaMode = .straight
        /// What happens to an embedded colour profile (``ImageDecodingOptions/colorPolicy``):
        /// converted to sRGB by default; `.keep` and `.ignore` are part of the cache key
        /// (`-Color(keep)`, `-Color(ignore)`).
        public var colorPolicy: ColorPolicy = .sRGB
        /// What of the source's EXIF, XMP and IPTC metadata the image keeps
        /// (``ImageDecodingOptions/metadataPolicy``): nothing by default; any other policy is part
        /// of the cache key (`-Metadata(keep)`, …) and is written with derived images stored on disk.
        public var metadataPolicy: MetadataPolicy = .strip
        /// Refuse sources with more pixels than this with ``WebImageError/Code/tooLarge``, from the
        /// header before any pixel memory is allocated; `nil`: the manager's
        /// ``ImageManager/Configuration/maxPixelCount``.
        public var maxPixelCount: Int?
        /// Refuse animations whose frames hold more pixels than this in all
        /// (``ImageDecodingOptions/maxAnimationPixelCount``); `nil`: the manager's
        /// ``ImageManager/Configuration/maxAnimationPixelCount``.
        public var maxAnimationPixelCount: Int?

        /// The defaults: full size, scale 1, no scale-down limit, the manager's coders.
        public init() {}
    }
}
