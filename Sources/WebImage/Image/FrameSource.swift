import Synchronization

/// A format's decoder positioned in an animation: it makes the composited canvas of a frame,
/// stepping forward, seeking or replaying as the format allows. ``FrameSource`` owns one, calls it
/// under its lock and, when it can make another, starts a fresh one when ``canReach(_:)`` says no
/// or a frame fails.
///
/// ```swift
/// final class MyCursor: FrameCursor {
///     private(set) var decodedFrames = 0
///     func frame(at index: Int) throws -> PixelBuffer { decodedFrames += 1; return try decode(index) }
/// }
/// ```
public protocol FrameCursor: AnyObject {
    /// The composited canvas of frame `index`, at the decoder's own size, in any alpha mode.
    func frame(at index: Int) throws -> PixelBuffer
    /// Whether this cursor can still make frame `index`; `false` makes the source start a new
    /// cursor (e.g. a decoder that only goes forward, asked for a frame behind it). Default: true.
    func canReach(_ index: Int) -> Bool
    /// How many frames this cursor has decoded, for the tests that check that sequential
    /// playback decodes each frame once.
    var decodedFrames: Int { get }
}

extension FrameCursor {
    public func canReach(_ index: Int) -> Bool { true }
}

/// The one skeleton of the codecs' animated sources: frame count, loop count, the stored delays
/// played through ``FrameDurationRule``, the range check, one ``FrameCursor`` behind a lock, and
/// the resample to ``canvasSize`` and the alpha conversion outside it. A format supplies only its
/// cursor; GIF, APNG, WebP, AVIF, JPEG XL and TIFF pages all play through this type.
///
/// ```swift
/// let source = FrameSource(
///     format: "WebP", frameCount: 12, loopCount: 0, storedDurations: delays,
///     canvasSize: output, alphaMode: .straight) { try WebPAnimationCursor(bytes: bytes) }
/// ```
public final class FrameSource<Cursor: FrameCursor>: AnimatedImageSource {
    public let frameCount: Int
    public let loopCount: Int
    /// The size of the frames returned (the canvas, or smaller for a thumbnail or scale-down).
    public let canvasSize: PixelSize
    private let format: String
    private let storedDurations: [Double]
    private let alphaMode: AlphaMode
    private let makeCursor: (@Sendable () throws -> Cursor)?
    private let cursor: Mutex<Cursor?>
    /// Frames decoded by cursors since dropped.
    private let droppedDecodes = Atomic<Int>(0)

    /// A source of `frameCount` frames whose container stores `storedDurations` (seconds, before
    /// ``FrameDurationRule``; missing entries count as 0). `cursor` may be one the decoder already
    /// used for the first frame; `makeCursor` makes the next ones. Without `makeCursor` the one
    /// `cursor` (required then) serves every frame, and a frame that fails leaves it in place
    /// (TIFF pages: one open file, each page decoded on its own).
    public init(
        format: String, frameCount: Int, loopCount: Int, storedDurations: [Double], canvasSize: PixelSize,
        alphaMode: AlphaMode, cursor: sending Cursor? = nil, makeCursor: (@Sendable () throws -> Cursor)?
    ) {
        precondition(cursor != nil || makeCursor != nil, "a FrameSource needs a cursor or a way to make one")
        self.format = format
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.storedDurations = storedDurations
        self.canvasSize = canvasSize
        self.alphaMode = alphaMode
        self.makeCursor = makeCursor
        self.cursor = Mutex(cursor)
    }

    /// The played duration: the stored one through ``FrameDurationRule`` (10 ms or less plays
    /// as 100 ms).
    public func duration(at index: Int) -> Double {
        FrameDurationRule.played(storedDuration(at: index))
    }

    public func storedDuration(at index: Int) -> Double {
        storedDurations.indices.contains(index) ? storedDurations[index] : 0
    }

    /// How many frames this source's cursors have decoded.
    public var decodedFrameCount: Int {
        droppedDecodes.load(ordering: .relaxed) + cursor.withLock { $0?.decodedFrames ?? 0 }
    }

    public func frame(at index: Int) throws -> AnimationFrame {
        guard index >= 0 && index < frameCount else {
            throw WebImageError(.decodingFailed, "\(format) frame \(index) is out of range 0..<\(frameCount)")
        }
        let canvas = try cursor.withLock { state -> PixelBuffer in
            if let existing = state, makeCursor != nil, !existing.canReach(index) { drop(&state) }
            guard let active = try state ?? makeCursor?() else {
                throw WebImageError(.decodingFailed, "\(format) frame \(index) has no decoder")
            }
            state = active
            do {
                return try active.frame(at: index)
            } catch {
                if makeCursor != nil { drop(&state) }  // a failed decoder starts afresh on the next request
                throw error
            }
        }
        // Resampling and alpha conversion run outside the lock.
        let sized = canvas.size == canvasSize ? canvas : Resampler.resample(canvas, to: canvasSize)
        return AnimationFrame(pixels: sized.converted(to: alphaMode), duration: duration(at: index))
    }

    private func drop(_ state: inout Cursor?) {
        if let state { droppedDecodes.add(state.decodedFrames, ordering: .relaxed) }
        state = nil
    }
}
