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
            animation: animation, hasAlpha: image.hasAlpha, originalPixelSize: image.originalPixelSize)
    }
}

/// Several transformers applied in order; its key joins theirs (SDWebImage's
/// `SDImagePipelineTransformer`).
public struct PipelineTransformer: ImageTransforming {
    public let transformers: [any ImageTransforming]
    public init(_ transformers: [any ImageTransforming]) { self.transformers = transformers }
    public var key: String { transformers.map(\.key).joined(separator: "-") }
    public func transform(_ image: Image) throws -> Image {
        try transformers.reduce(image) { try $1.transform($0) }
    }
}
