/// Something that turns one decoded image into another (SDWebImage's `SDImageTransformer`).
///
/// The ``key`` identifies the transform and its parameters; it becomes part of the cache key of
/// the transformed image (`"<cache key>-<transformer key>"`).
///
/// ```swift
/// let thumbnail = try ResizeTransformer(size: PixelSize(width: 200, height: 200), mode: .aspectFill)
///     .transform(image)
/// ```
public protocol ImageTransforming: Sendable {
    /// A stable string naming the transform and its parameters.
    var key: String { get }
    /// Transforms `image`. Animated images are transformed frame by frame, on demand.
    func transform(_ image: Image) throws -> Image
}

extension ImageTransforming {
    /// Applies `body` to the first frame and (lazily) to every animation frame.
    func mapFrames(
        _ image: Image, canvasSize: PixelSize, _ body: @escaping @Sendable (PixelBuffer) throws -> PixelBuffer
    ) throws -> Image {
        let animation = image.animation.map { MappedAnimation($0, canvasSize: canvasSize, transform: body) as any AnimatedImageSource }
        return Image(
            pixels: try body(image.pixels), scale: image.scale, orientation: image.orientation, format: image.format,
            animation: animation, hasAlpha: image.hasAlpha, originalPixelSize: image.originalPixelSize,
            colorProfile: image.colorProfile, metadata: image.metadata)
    }
}

/// Several transformers applied in order; its key joins theirs (SDWebImage's
/// `SDImagePipelineTransformer`).
///
/// A step's own error comes back as ``WebImageError/Code/transformFailed`` naming that step.
public struct ChainedTransformer: ImageTransforming {
    /// The steps, in order.
    public let transformers: [any ImageTransforming]
    /// A chain of `transformers`, applied in order.
    public init(_ transformers: [any ImageTransforming]) { self.transformers = transformers }
    /// The steps' keys joined by `-`.
    public var key: String { transformers.map(\.key).joined(separator: "-") }
    /// Applies every step in order.
    public func transform(_ image: Image) throws -> Image {
        try transformers.reduce(image) { try $1.transformWrappingErrors($0) }
    }
}

extension ImageTransforming {
    /// Transforms, turning a foreign error into `transformFailed` naming this transformer. A
    /// result of ``ImageFormat/undefined`` format (an image a closure made from pixels) takes the
    /// source's format, as Nuke's processed images keep their source's type; a transformer that
    /// names a format keeps it.
    func transformWrappingErrors(_ image: Image) throws -> Image {
        let result: Image
        do {
            result = try transform(image)
        } catch {
            throw WebImageError.wrapping(error, code: .transformFailed, "the transformer \(key) failed")
        }
        guard result.format == .undefined, image.format != .undefined else { return result }
        return result.replacingFormat(image.format)
    }
}
