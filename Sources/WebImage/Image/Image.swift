/// A decoded image: immutable, thread-safe, shareable across tasks.
///
/// Still images hold their pixels. Animated images hold the first frame as ``pixels`` (the
/// poster) and an ``animation`` source that decodes frame N on demand, so that an animation never
/// needs every frame in memory at once.
///
/// ```swift
/// let image = try coders.decode(data)
/// print(image.pixelSize, image.format, image.animation?.frameCount ?? 1)
/// ```
public final class Image: Sendable {
    /// The first (or only) frame, in ``PixelBuffer/alphaMode`` (straight unless asked otherwise).
    public let pixels: PixelBuffer
    /// Points per pixel, as UIKit's `UIImage.scale` (1 unless a scale factor was requested).
    public let scale: Double
    /// How the stored pixels should be displayed; never applied to ``pixels``.
    public let orientation: ImageOrientation
    /// The format the image was decoded from (``ImageFormat/undefined`` for generated images).
    public let format: ImageFormat
    /// Frames on demand, for animated images.
    public let animation: (any AnimatedImageSource)?
    /// Whether the source declares an alpha channel (PNG colour type or tRNS, GIF transparency, …).
    public let hasAlpha: Bool
    /// The pixel size of the source before any thumbnail or scale-down was applied.
    public let originalPixelSize: PixelSize
    /// The colour profile the pixels are in; nil for sRGB (or unknown, taken as sRGB). Decoding
    /// converts to sRGB and drops it unless told to keep it (``ImageDecodingOptions/colorPolicy``).
    public let colorProfile: ColorProfile?
    /// The source's EXIF, XMP and IPTC metadata, as ``ImageDecodingOptions/metadataPolicy`` kept
    /// it (nil by default: ``MetadataPolicy/strip``); carried through transforms and written by
    /// encoders as ``ImageEncodingOptions/metadataPolicy`` says.
    public let metadata: ImageMetadata?

    /// An image of these pixels and properties.
    public init(
        pixels: PixelBuffer,
        scale: Double = 1,
        orientation: ImageOrientation = .up,
        format: ImageFormat = .undefined,
        animation: (any AnimatedImageSource)? = nil,
        hasAlpha: Bool? = nil,
        originalPixelSize: PixelSize? = nil,
        colorProfile: ColorProfile? = nil,
        metadata: ImageMetadata? = nil
    ) {
        self.pixels = pixels
        self.scale = scale > 0 ? scale : 1
        self.orientation = orientation
        self.format = format
        self.animation = animation
        self.hasAlpha = hasAlpha ?? !pixels.isOpaque
        self.originalPixelSize = originalPixelSize ?? pixels.size
        self.colorProfile = colorProfile
        self.metadata = metadata
    }

    /// The size of the pixel data.
    public var pixelSize: PixelSize { pixels.size }

    /// The display size in points: pixel size over scale, width and height swapped for
    /// orientations 5–8.
    public var size: (width: Double, height: Double) {
        let w = Double(pixels.width) / scale
        let h = Double(pixels.height) / scale
        return orientation.swapsDimensions ? (h, w) : (w, h)
    }

    /// Whether the image has more than one frame.
    public var isAnimated: Bool { (animation?.frameCount ?? 1) > 1 }

    /// Bytes of decoded pixels this image holds now: the poster (``pixels``) plus what its
    /// animation holds (``AnimatedImageSource/heldByteCount``). A decoded animation holds only the
    /// frames it has in the ``AnimatedFramePool`` (none until preloaded or played), so a memory
    /// cache charges what is actually kept; an ``InMemoryAnimation`` holds every frame.
    /// SDWebImage's `sd_memoryCost`, which counts every frame only once all are loaded.
    public var memoryCost: Int {
        let (total, overflow) = pixels.bytes.count.addingReportingOverflow(animation?.heldByteCount ?? 0)
        return overflow ? .max : total
    }
}

extension Image {
    /// The same image without ``colorProfile``: its pixels taken as sRGB.
    public func droppingColorProfile() -> Image {
        guard colorProfile != nil else { return self }
        return Image(
            pixels: pixels, scale: scale, orientation: orientation, format: format, animation: animation, hasAlpha: hasAlpha,
            originalPixelSize: originalPixelSize, metadata: metadata)
    }

    /// The still image of the first frame (the poster): this image without its animation.
    var firstFrame: Image {
        guard animation != nil else { return self }
        return Image(
            pixels: pixels, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            originalPixelSize: originalPixelSize, colorProfile: colorProfile, metadata: metadata)
    }

    /// The same image reporting `format` as the one it was decoded from.
    func replacingFormat(_ format: ImageFormat) -> Image {
        Image(
            pixels: pixels, scale: scale, orientation: orientation, format: format, animation: animation, hasAlpha: hasAlpha,
            originalPixelSize: originalPixelSize, colorProfile: colorProfile, metadata: metadata)
    }

    /// The same image with `metadata` instead of its own.
    public func replacingMetadata(_ metadata: ImageMetadata?) -> Image {
        Image(
            pixels: pixels, scale: scale, orientation: orientation, format: format, animation: animation, hasAlpha: hasAlpha,
            originalPixelSize: originalPixelSize, colorProfile: colorProfile, metadata: metadata)
    }
}
