/// The frames of an animated image, decoded on demand.
///
/// Implementations keep the encoded bytes and decode frame N when asked, compositing it onto the
/// canvas per the format's rules (disposal, blending), so that every frame returned is the whole
/// canvas as it should be shown. Sequential access (0, 1, 2, …) is the fast path; random access
/// is correct but may replay earlier frames.
///
/// ```swift
/// if let animation = image.animation {
///     for index in 0..<animation.frameCount {
///         let frame = try animation.frame(at: index)
///         show(frame.pixels, for: frame.duration)
///     }
/// }
/// ```
public protocol AnimatedImageSource: Sendable {
    /// How many frames the animation has.
    var frameCount: Int { get }
    /// How many times to play: 0 means forever. GIF files without a NETSCAPE2.0 extension play once (1).
    var loopCount: Int { get }
    /// The size of every composited frame.
    var canvasSize: PixelSize { get }
    /// How long frame `index` is shown, in seconds: the stored delay after
    /// ``FrameDurationRule`` (10 ms or less plays as 100 ms).
    func duration(at index: Int) -> Double
    /// The delay the container stores for frame `index`, in seconds, before
    /// ``FrameDurationRule``: GIF centiseconds, APNG's `delay_num / delay_den` (a zero denominator
    /// meaning hundredths), WebP milliseconds.
    ///
    /// Encoders write this value, so transcoding keeps a 0 ms frame at 0 ms. The default returns
    /// ``duration(at:)``: sources without a container (generated frames) store what they play.
    func storedDuration(at index: Int) -> Double
    /// Frame `index`, composited onto the canvas. Throws ``WebImageError`` when the data is corrupt.
    func frame(at index: Int) throws -> AnimationFrame
    /// Bytes of decoded frames this source keeps in memory now, beside the image's poster
    /// (``Image/pixels``): every frame for ``InMemoryAnimation``, the pooled frames for
    /// ``PooledAnimation``, 0 for sources that decode on demand (the default).
    var heldByteCount: Int { get }
}

/// One composited frame of an animation.
public struct AnimationFrame: Sendable {
    /// The whole canvas at this frame.
    public var pixels: PixelBuffer
    /// How long it is shown, in seconds (``AnimatedImageSource/duration(at:)``).
    public var duration: Double

    public init(pixels: PixelBuffer, duration: Double) {
        self.pixels = pixels
        self.duration = duration
    }
}

extension AnimatedImageSource {
    /// ``duration(at:)``: a source without a container stores what it plays.
    public func storedDuration(at index: Int) -> Double { duration(at: index) }

    /// 0: a source that decodes on demand holds no frames beyond its working canvas.
    public var heldByteCount: Int { 0 }

    /// The sum of all frame durations, in seconds.
    public var totalDuration: Double { (0..<frameCount).reduce(0) { $0 + duration(at: $1) } }
}
