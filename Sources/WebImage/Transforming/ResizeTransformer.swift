/// Resizes to a size in pixels, in the image's *displayed* orientation.
///
/// - ``Mode/fill``: stretch to the size.
/// - ``Mode/aspectFit``: fit inside the size keeping the aspect ratio; the result is the fitted
///   size (no margins), unless ``padsToSize``.
/// - ``Mode/aspectFill``: cover the size keeping the aspect ratio, centred and cropped to it.
///
/// The rule: **never upscale by default.** Without ``allowsUpscaling`` no axis grows: a source
/// smaller than the size keeps its own size (fill and fit), or is only cropped to the size's
/// proportions where it exceeds them (fill's axes clamp one by one; cover crops to at most the
/// source). With ``padsToSize`` the result's canvas is exactly the size, the image centred on
/// transparent margins.
///
/// How the peers differ:
/// - SDWebImage's `SDImageResizingTransformer` always scales to exactly the size per its
///   `contentMode` (scale-to-fill, aspect-fit with transparent margins, aspect-fill cropped),
///   upscaling included: ask for `allowsUpscaling: true, padsToSize: true` to get that.
/// - Nuke's `ImageProcessors.Resize` defaults to `upscale: false` and aspect-fit without margins,
///   with a `crop` option for aspect-fill: our defaults, with `.aspectFill` for `crop: true`.
///
/// EXIF orientation is carried on ``Image/orientation``, never applied to the pixels, so the size
/// is taken in the displayed orientation: for orientations 5–8 (a rotated portrait photo stored
/// landscape) the size's width and height are swapped before the stored pixels are resized, and
/// the result keeps the orientation. The result keeps the source's ``Image/format`` too, so a
/// cache stores it in that format.
///
/// The ``filter`` chooses the resampling kernel: Lanczos-3 by default (sharp downscales), Mitchell
/// (softer, no ringing), bilinear, or nearest-neighbour (pixel art; no blending).
///
/// Every result obeys a pixel limit (``maxPixelCount``, the decoding limit by default), checked
/// from the sizes before any pixel is allocated: an oversized result throws
/// ``WebImageError/Code/tooLarge``.
///
/// ```swift
/// let square = try ResizeTransformer(size: PixelSize(width: 128, height: 128), mode: .aspectFill).transform(image)
/// let boxed = try ResizeTransformer(size: PixelSize(width: 320, height: 240), mode: .aspectFit, padsToSize: true)
///     .transform(image)
/// ```
public struct ResizeTransformer: ImageTransforming {
    /// How the image is placed in the target size.
    public enum Mode: String, Sendable, CaseIterable {
        case fill, aspectFit, aspectFill
    }

    /// The size, in the displayed orientation.
    public let size: PixelSize
    /// How the image is placed in ``size``.
    public let mode: Mode
    /// Whether an image smaller than ``size`` is enlarged (default `false`).
    public let allowsUpscaling: Bool
    /// Whether the result is exactly ``size``, the image centred on transparent margins
    /// (default `false`: the result is as large as the image placed in it).
    public let padsToSize: Bool
    /// The resampling kernel (default ``Resampler/Filter/lanczos3``).
    public let filter: Resampler.Filter
    /// The most pixels a result (each frame of an animation) may have; not part of ``key``.
    public let maxPixelCount: Int

    /// A resize to `size` in `mode`.
    public init(
        size: PixelSize, mode: Mode = .fill, allowsUpscaling: Bool = false, padsToSize: Bool = false,
        filter: Resampler.Filter = .lanczos3, maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    ) {
        self.filter = filter
        self.size = size
        self.mode = mode
        self.allowsUpscaling = allowsUpscaling
        self.padsToSize = padsToSize
        self.maxPixelCount = maxPixelCount
    }

    /// `ResizeTransformer(WxH,mode)`, with `,upscale` and `,pad` when those are on and the filter's
    /// name when it is not Lanczos-3 (so keys made before filters existed still match).
    public var key: String {
        "ResizeTransformer(\(size.width)x\(size.height),\(mode.rawValue)"
            + (allowsUpscaling ? ",upscale" : "") + (padsToSize ? ",pad" : "")
            + (filter == .lanczos3 ? "" : ",\(filter.rawValue)") + ")"
    }

    public func transform(_ image: Image) throws -> Image {
        guard size.width > 0, size.height > 0 else {
            throw WebImageError(.badImageData, "cannot resize to an empty size \(size)")
        }
        // The size is in display orientation; the pixels are stored unrotated.
        let target = image.orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
        let (mode, upscale, pad, limit, filter) = (mode, allowsUpscaling, padsToSize, maxPixelCount, filter)
        let canvas = ResizeGeometry(
            source: image.pixelSize, target: target, mode: mode, allowsUpscaling: upscale, padsToSize: pad
        ).canvasSize
        // Animation frames are canvas-sized, like the first frame.
        return try mapFrames(image, canvasSize: canvas) { pixels in
            let geometry = ResizeGeometry(
                source: pixels.size, target: target, mode: mode, allowsUpscaling: upscale, padsToSize: pad)
            return try Self.resize(pixels, geometry: geometry, filter: filter, maxPixelCount: limit)
        }
    }

    /// Applies `geometry`, after checking its sizes against `maxPixelCount`.
    static func resize(
        _ pixels: PixelBuffer, geometry: ResizeGeometry, filter: Resampler.Filter = .lanczos3, maxPixelCount: Int
    ) throws -> PixelBuffer {
        for size in [geometry.scaledSize, geometry.canvasSize] {
            guard size.pixelCount <= maxPixelCount else {
                throw WebImageError(
                    .tooLarge, "resizing to \(size) makes \(size.pixelCount) pixels, over the limit of \(maxPixelCount)")
            }
        }
        let whole = geometry.sourceRect == PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height)
        let kept = whole ? pixels : try pixels.cropped(to: geometry.sourceRect)
        let scaled = Resampler.resample(kept, to: geometry.scaledSize, filter: filter)
        guard geometry.canvasSize != geometry.scaledSize else { return scaled }
        var canvas = try PixelBuffer(
            width: geometry.canvasSize.width, height: geometry.canvasSize.height, alphaMode: pixels.alphaMode,
            maxPixelCount: maxPixelCount)
        canvas.draw(scaled, at: geometry.origin)
        return canvas
    }
}
