/// Plays an animated image in time, with no view attached (SDWebImage's `SDAnimatedImagePlayer`):
/// frames come out of ``frames`` when they are due, loop and end notices out of ``events``.
///
/// - Control: ``play()``, ``pause()``, ``stop()`` (back to frame 0), ``seek(toFrame:loop:)``,
///   ``playbackRate`` (2 = twice as fast, 0 holds the position), ``playbackMode`` and
///   ``loopCount`` (the image's, or your own; 0 = forever).
/// - Timing: the position is computed from the clock, never by counting frames. When the
///   consumer or the decoder falls behind, the next frame emitted is the one due *now*; frames in
///   between are skipped and the animation does not drift. ``frames`` keeps only the newest
///   undelivered frame. Durations of 10 ms or less play as 100 ms (the browsers' rule).
/// - Memory: frames are decoded through the image's ``PooledAnimation`` and kept in its
///   ``AnimatedFramePool``. While waiting for the next frame, the player decodes up to
///   ``maxBufferSize`` upcoming frames ahead (fewer when the pool's budget cannot hold them;
///   none with a budget of 0, where each frame is decoded just in time). A loop that fits in the
///   pool is decoded once.
/// - Lifetime: one task drives playback while there is something to do (it sleeps on the clock
///   between frames, and is gone while paused). Releasing the player cancels it and finishes
///   both streams; so does the end of the last loop (`.finished`) or a frame that fails to decode
///   (`.failed`). A finished player stays finished.
///
/// - Still downloading: over a ``ProgressiveAnimation``, frames play in order as they arrive;
///   playback waits on the last frame there is (it does not loop back to the start) and goes on
///   when more come; the mode and the loops apply once the animation is complete.
///
/// The clock is injectable: tests drive playback with `ManualClock` (WebImageTesting).
///
/// ```swift
/// let player = try #require(AnimatedImagePlayer(image: image))
/// player.playbackMode = .bounce
/// player.play()
/// for await frame in player.frames {
///     show(frame.pixels)                   // frame.index, frame.loop
/// }
/// ```
public final class AnimatedImagePlayer: Sendable {
    /// The frames to show, each when it is due; finishes when playback ends or the player goes.
    public let frames: AsyncStream<Frame>
    /// Loop and end notices; finishes with ``frames``.
    public let events: AsyncStream<Event>
    /// The animation played; its frames live in its pool.
    public let animation: PooledAnimation
    private let core: PlayerCore
    /// The registration for a ``ProgressiveAnimation``'s new frames.
    private let arrivals: ProgressiveAnimation.Observation?

    /// A player for `image`'s animation, paused on nothing until ``play()``; nil for a still image.
    ///
    /// - Parameters:
    ///   - clock: where time comes from (`ContinuousClock` by default).
    ///   - pool: the pool for frames when the animation is not already pooled (default: shared).
    public convenience init?(
        image: Image, clock: any Clock<Duration> = ContinuousClock(), pool: AnimatedFramePool = .shared
    ) {
        guard let animation = image.animation, animation.frameCount > 0 else { return nil }
        self.init(animation: animation, clock: clock, pool: pool)
    }

    /// A player for `animation` (kept in `pool` unless it is a ``PooledAnimation`` already),
    /// which has at least one frame, unless it is a ``ProgressiveAnimation``: a player over one
    /// with no frame yet shows the first when it arrives.
    public init(
        animation: any AnimatedImageSource, clock: any Clock<Duration> = ContinuousClock(),
        pool: AnimatedFramePool = .shared
    ) {
        let pooled = animation as? PooledAnimation ?? PooledAnimation(animation, pool: pool)
        self.animation = pooled
        let (frames, frameContinuation) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(1))
        let (events, eventContinuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(Self.eventBufferSize))
        self.frames = frames
        self.events = events
        let core = PlayerCore(
            animation: pooled, clock: PlayerClock(clock), frames: frameContinuation, events: eventContinuation)
        self.core = core
        arrivals = (pooled.base as? ProgressiveAnimation)?.observe { [weak core] in core?.framesArrived() }
        // Frames that arrived between reading the durations and registering.
        if arrivals != nil { core.framesArrived() }
    }

    deinit { core.shutDown() }

    /// Undelivered events kept at most (the newest; `.finished` is always last).
    static let eventBufferSize = 64

    // MARK: - Control

    /// Starts or resumes playback from the current position.
    public func play() { core.command { $0.play(at: $1) } }

    /// Holds the current position; ``play()`` continues from it.
    public func pause() { core.command { $0.pause(at: $1) } }

    /// Pauses and goes back to the start of loop 0; the first frame is emitted again.
    public func stop() { core.command { $0.stop(at: $1) } }

    /// Moves to `frame` in loop `loop` (both clamped to the animation), emitting it at once,
    /// playing or not. In the bounce modes this is the frame's first appearance in the loop.
    public func seek(toFrame frame: Int, loop: Int = 0) {
        core.command { $0.seek(toFrame: frame, loop: loop, at: $1) }
    }

    // MARK: - Settings

    /// Speed: 1 is real time, 2 twice as fast, 0.5 half; 0 holds the position (still playing).
    public var playbackRate: Double {
        get { core.machine { $0.rate } }
        set { core.command { $0.setRate(newValue, at: $1) } }
    }

    /// The order frames play in; changing it keeps the frame on screen.
    public var playbackMode: PlaybackMode {
        get { core.machine { $0.mode } }
        set { core.command { $0.setMode(newValue, at: $1) } }
    }

    /// How many loops to play, 0 = forever: the animation's ``AnimatedImageSource/loopCount``
    /// until set.
    public var loopCount: Int {
        get { core.machine { $0.loopLimit } }
        set { core.command { machine, _ in machine.setLoopLimit(newValue) } }
    }

    /// The most upcoming frames decoded ahead of the one on screen (default 8), also bounded by
    /// what the pool's budget can hold; 0 decodes each frame just in time.
    public var maxBufferSize: Int {
        get { core.maxBufferSize }
        set { core.maxBufferSize = max(0, newValue) }
    }

    /// The frame last emitted and whether playback is running or over.
    public var status: Status { core.status }
}
