/// An animation whose frames are already decoded and held in memory.
///
/// For generated animations (tests, fixtures) and for small transformed animations.
///
/// ```swift
/// let animation = InMemoryAnimation(frames: [frame0, frame1], loopCount: 0)
/// let image = Image(pixels: frame0.pixels, animation: animation)
/// ```
public struct InMemoryAnimation: AnimatedImageSource {
    public let frames: [AnimationFrame]
    public let loopCount: Int
    /// The stored delay of each frame (``AnimatedImageSource/storedDuration(at:)``); nil when the
    /// frames store what they play.
    public let storedDurations: [Double]?

    /// `frames` must be non-empty and all the same size; `storedDurations`, when given, holds one
    /// stored delay per frame (frames copied from a decoded file keep its raw delays that way).
    public init(frames: [AnimationFrame], loopCount: Int = 0, storedDurations: [Double]? = nil) {
        precondition(!frames.isEmpty, "an animation needs at least one frame")
        precondition(storedDurations.map { $0.count == frames.count } ?? true, "one stored duration per frame")
        self.frames = frames
        self.loopCount = loopCount
        self.storedDurations = storedDurations
    }

    public var frameCount: Int { frames.count }
    public var canvasSize: PixelSize { frames[0].pixels.size }
    public func duration(at index: Int) -> Double { frames[index].duration }
    public func storedDuration(at index: Int) -> Double { storedDurations?[index] ?? frames[index].duration }
    public func frame(at index: Int) throws -> AnimationFrame { frames[index] }
    /// Every frame's bytes: they are all in memory.
    public var heldByteCount: Int { frames.reduce(0) { $0 &+ $1.pixels.bytes.count } }
}

/// An animation whose frames are another animation's, each passed through a transform when asked.
///
/// Keeps the on-demand property: nothing is decoded or transformed until a frame is requested.
public struct MappedAnimation: AnimatedImageSource {
    public let base: any AnimatedImageSource
    public let canvasSize: PixelSize
    private let transform: @Sendable (PixelBuffer) throws -> PixelBuffer

    /// `transform` must return buffers of `canvasSize`.
    public init(
        _ base: any AnimatedImageSource, canvasSize: PixelSize,
        transform: @escaping @Sendable (PixelBuffer) throws -> PixelBuffer
    ) {
        self.base = base
        self.canvasSize = canvasSize
        self.transform = transform
    }

    public var frameCount: Int { base.frameCount }
    public var loopCount: Int { base.loopCount }
    /// What the base holds (transformed frames are made on demand and not kept).
    public var heldByteCount: Int { base.heldByteCount }
    public func duration(at index: Int) -> Double { base.duration(at: index) }
    public func storedDuration(at index: Int) -> Double { base.storedDuration(at: index) }
    public func frame(at index: Int) throws -> AnimationFrame {
        let frame = try base.frame(at: index)
        return AnimationFrame(pixels: try transform(frame.pixels), duration: frame.duration)
    }
}
