/// How to decode: frames, scale, thumbnail and the limits that stop oversized images.
///
/// Mirrors SDWebImage's decode options (`SDImageCoderDecodeFirstFrameOnly`,
/// `…DecodeScaleFactor`, `…DecodeThumbnailPixelSize`, `…DecodePreserveAspectRatio`,
/// `…DecodeScaleDownLimitBytes`) and adds a pixel limit checked against the header before any
/// pixel memory is allocated.
///
/// ```swift
/// var options = ImageDecodingOptions()
/// options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
/// let thumbnail = try coders.decode(data, options: options)
/// ```
public struct ImageDecodingOptions: Hashable, Sendable {
    /// Decode only the first frame of an animation (the result has no ``Image/animation``).
    public var firstFrameOnly: Bool = false
    /// Points per pixel of the result (``Image/scale``); does not change the pixels.
    public var scaleFactor: Double = 1
    /// Decode to at most this size. With ``preserveAspectRatio`` the image fits inside it;
    /// without, it is stretched to exactly this size. Never scales up.
    ///
    /// The size is in the *displayed* orientation: for an EXIF orientation of 5–8 (a portrait
    /// photo stored landscape) the stored pixels fit the box with width and height swapped, so
    /// that the displayed image fits the box (see ``targetSize(for:frameCount:orientation:)``).
    public var thumbnailPixelSize: PixelSize?
    /// Whether a thumbnail keeps the source's aspect ratio.
    public var preserveAspectRatio: Bool = true
    /// With a ``thumbnailPixelSize``: stop at the cheapest reduced decode that still covers the box
    /// (JPEG's DCT scaling to N/8) instead of resampling to the box exactly, for callers that resize
    /// the result themselves: one resample instead of two (Pillow's `draft`). The result keeps the
    /// source's proportions and may be up to twice the box; formats without a reduced decode decode
    /// to the box as usual. Off by default.
    ///
    /// ```swift
    /// var options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 512, height: 512))
    /// options.draft = true   // a 4000×3000 JPEG comes out 500×375 (1/8), for a resize to 256
    /// ```
    public var draft: Bool = false
    /// Scale down images whose decoded RGBA bytes exceed this many (SDWebImage's
    /// `scaleDownLargeImages`); for animations the limit is shared by all frames. `nil`: no limit.
    public var scaleDownLimitBytes: Int?
    /// Refuse images with more pixels than this (read from the header, before allocating),
    /// with a ``WebImageError/Code/tooLarge`` error.
    public var maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    /// The CPU budget of an animation: refuse animations whose frames together hold more pixels
    /// than this (frame count × pixels per composited frame, counted from the container as frames
    /// are met, before any frame after the first is decoded), with a
    /// ``WebImageError/Code/tooLarge`` error. Not applied when ``firstFrameOnly`` is set.
    ///
    /// Every frame of an animation is composited on the whole canvas, so a few hundred kilobytes of
    /// tiny frames on a large canvas can cost minutes of work; the default (one billion pixels,
    /// e.g. 4,000 frames of 500×500) refuses those and admits every real-world animation.
    public var maxAnimationPixelCount: Int = ImageDecodingOptions.defaultMaxAnimationPixelCount
    /// The alpha representation of the decoded pixels.
    ///
    /// ``AlphaMode/straight`` by default: what PNG, APNG, GIF and WebP store, so that a lossless
    /// decode → encode round trip is bit-exact. Ask for ``AlphaMode/premultiplied`` when the
    /// pixels go to a compositor that wants them so; transforms premultiply internally where
    /// they need to (resampling) and return the mode they were given.
    public var alphaMode: AlphaMode = .straight
    /// What happens to an embedded colour profile: converted to sRGB (the default), kept on
    /// ``Image/colorProfile`` with the pixels untouched, or ignored. Applied by
    /// ``ImageCodersManager`` with its ``ImageCodersManager/colorConverter``.
    public var colorPolicy: ColorPolicy = .sRGB
    /// What of the source's EXIF, XMP and IPTC metadata ``Image/metadata`` keeps: nothing (the
    /// default, ``MetadataPolicy/strip``: nothing is read), or what the policy keeps. Read by
    /// ``ImageCodersManager`` from coders that adopt ``ImageMetadataReading``.
    public var metadataPolicy: MetadataPolicy = .strip

    /// SDWebImage's default scale-down limit: 60 MB of decoded pixels.
    public static let defaultScaleDownLimitBytes = 60 * 1024 * 1024
    /// The default pixel limit: 100 megapixels.
    public static let defaultMaxPixelCount = 100_000_000
    /// The default animation budget: one billion pixels over all frames.
    public static let defaultMaxAnimationPixelCount = 1_000_000_000

    public init(
        firstFrameOnly: Bool = false,
        scaleFactor: Double = 1,
        thumbnailPixelSize: PixelSize? = nil,
        preserveAspectRatio: Bool = true,
        scaleDownLimitBytes: Int? = nil,
        maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount,
        alphaMode: AlphaMode = .straight,
        maxAnimationPixelCount: Int = ImageDecodingOptions.defaultMaxAnimationPixelCount
    ) {
        self.firstFrameOnly = firstFrameOnly
        self.scaleFactor = scaleFactor
        self.thumbnailPixelSize = thumbnailPixelSize
        self.preserveAspectRatio = preserveAspectRatio
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.maxPixelCount = maxPixelCount
        self.alphaMode = alphaMode
        self.maxAnimationPixelCount = maxAnimationPixelCount
    }

    /// Throws ``WebImageError/Code/tooLarge`` when `size` exceeds ``maxPixelCount``, and
    /// ``WebImageError/Code/badImageData`` when it is empty. Call it with the header's size
    /// before allocating pixels.
    public func checkPixelLimit(_ size: PixelSize) throws {
        guard size.width > 0, size.height > 0 else {
            throw WebImageError.badData("image has an empty size \(size)")
        }
        if size.pixelCount > maxPixelCount {
            throw WebImageError.tooManyPixels(width: size.width, height: size.height, limit: maxPixelCount)
        }
    }

    /// The size to decode a `source`-sized image (or each of `frameCount` frames) to, applying
    /// the thumbnail size and the scale-down limit. Returns `source` when neither applies.
    ///
    /// `source` and the result are stored sizes; `orientation` is the image's EXIF orientation,
    /// and the thumbnail box applies to the displayed image: for orientations 5–8 its width and
    /// height are swapped. Orientation 6, a 4000×3000 stored photo and a 320×1000 box give
    /// 427×320 stored pixels, which display as 320×427.
    ///
    /// ```swift
    /// let stored = options.targetSize(for: header.size, orientation: exifOrientation)
    /// ```
    public func targetSize(for source: PixelSize, frameCount: Int = 1, orientation: ImageOrientation = .up) -> PixelSize {
        var target = source
        if var thumbnail = thumbnailPixelSize, thumbnail.width > 0, thumbnail.height > 0 {
            if orientation.swapsDimensions { thumbnail = PixelSize(width: thumbnail.height, height: thumbnail.width) }
            target = Self.fit(source, into: thumbnail, preserveAspectRatio: preserveAspectRatio)
        }
        if let limit = scaleDownLimitBytes, limit > 0 {
            let limitPixels = max(1, limit / 4 / max(1, frameCount))
            if target.pixelCount > limitPixels {
                let ratio = (Double(limitPixels) / Double(target.pixelCount)).squareRoot()
                target = PixelSize(
                    width: max(1, Int(Double(target.width) * ratio)),
                    height: max(1, Int(Double(target.height) * ratio)))
            }
        }
        return target
    }

    /// SDWebImage's `scaledSizeWithImageSize:scaleSize:preserveAspectRatio:shouldScaleUp:NO`.
    static func fit(_ source: PixelSize, into box: PixelSize, preserveAspectRatio: Bool) -> PixelSize {
        guard preserveAspectRatio else {
            return PixelSize(width: min(box.width, source.width), height: min(box.height, source.height))
        }
        if source.width <= box.width && source.height <= box.height { return source }
        let sourceRatio = Double(source.width) / Double(source.height)
        let boxRatio = Double(box.width) / Double(box.height)
        // Each side stays within the source's (the box is smaller on at least one axis), so the
        // saturating conversion never matters for real sizes; it only rules out a trap.
        if sourceRatio > boxRatio {
            return PixelSize(width: box.width, height: ResizeGeometry.scaled(box.width, by: 1 / sourceRatio, atMost: source.height))
        } else {
            return PixelSize(width: ResizeGeometry.scaled(box.height, by: sourceRatio, atMost: source.width), height: box.height)
        }
    }
}
