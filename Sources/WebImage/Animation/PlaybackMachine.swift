/// The player's state as a pure machine: commands move it, ``nextAction(at:)`` says what the
/// driving task must do now. No clock, no tasks: times are nanoseconds passed in by the caller.
///
/// Position is derived from time, never from counting frames: media time (nanoseconds of the
/// animation at rate 1 since loop 0 began) is `anchorMedia + (now − anchorClock) × rate` while
/// playing, and every command re-anchors. A late caller therefore gets the step due *now*, and
/// skipped steps are never replayed.
///
/// An animation still arriving (``isGrowing``) plays its frames in order, whatever the mode, and
/// waits on the last frame it has (no loop back to the start) until ``extend(durations:complete:at:)``
/// brings more; the mode and the loops apply once every frame is in.
struct PlaybackMachine: Sendable {
    typealias Event = AnimatedImagePlayer.Event

    /// A step of a loop.
    struct Position: Equatable, Sendable {
        var loop: Int
        var step: Int
    }

    /// A frame to show, with the events that come before it.
    struct Emission: Equatable, Sendable {
        var frame: Int
        var loop: Int
        var eventsBefore: [Event]
        /// The last emission: `.finished` follows it and the player ends.
        var finishes: Bool
    }

    enum Action: Equatable, Sendable {
        /// Show a frame now.
        case emit(Emission)
        /// Nothing due before this clock time (ns).
        case sleep(until: Int64)
        /// Nothing to do until a command (paused, or rate 0).
        case idle
        /// Send these events and end (the last loop ended on the frame already shown).
        case finish([Event])
    }

    private(set) var timeline: PlaybackTimeline
    private var durations: [Double]
    /// More frames are still to come: play in order and wait at the last one.
    private(set) var isGrowing: Bool
    /// The mode asked for (the timeline plays `.normal` while growing).
    private var requestedMode: AnimatedImagePlayer.PlaybackMode
    /// Loops to play; 0 = forever.
    private(set) var loopLimit: Int
    private(set) var rate: Double = 1
    private(set) var isPlaying = false
    private(set) var isFinished = false
    /// The last position shown.
    private(set) var shown: Position?
    private var anchorClock: Int64 = 0
    private var anchorMedia: Int64 = 0
    private var forceEmit = false
    private var loopsReported = 0

    init(durations: [Double], mode: AnimatedImagePlayer.PlaybackMode, loopLimit: Int, growing: Bool = false) {
        self.durations = durations
        isGrowing = growing
        requestedMode = mode
        timeline = PlaybackTimeline(durations: durations, mode: growing ? .normal : mode)
        self.loopLimit = max(0, loopLimit)
    }

    var frameCount: Int { durations.count }
    var mode: AnimatedImagePlayer.PlaybackMode { requestedMode }

    // MARK: - What to do

    /// What the driver must do at clock time `now`; an emission is recorded as shown.
    mutating func nextAction(at now: Int64) -> Action {
        // A growing animation may have no frame yet: nothing to show until one comes.
        guard !isFinished, frameCount > 0 else { return .idle }
        let length = timeline.loopLength
        // Still arriving: never past the last frame there is (it stays on screen until more come).
        let media = isGrowing ? min(mediaTime(at: now), length - 1) : mediaTime(at: now)
        if !isGrowing, loopLimit > 0, media / length >= Int64(loopLimit) {
            return finish()
        }
        let position = Position(loop: Int(media / length), step: timeline.step(at: media % length))
        if position != shown || forceEmit {
            var events: [Event] = []
            if position.loop > loopsReported, shown != nil {
                events.append(.loopFinished(completedLoops: position.loop))
            }
            loopsReported = position.loop
            shown = position
            forceEmit = false
            return .emit(Emission(frame: timeline.steps[position.step], loop: position.loop, eventsBefore: events, finishes: false))
        }
        guard isPlaying, rate > 0 else { return .idle }
        // Waiting for frames: nothing to do until ``extend(durations:complete:at:)``.
        if isGrowing, position.step == timeline.steps.count - 1, mediaTime(at: now) >= length - 1 { return .idle }
        let nextStart = Int64(position.loop) * length + timeline.starts[position.step + 1]
        let wait = (Double(nextStart - anchorMedia) / rate).rounded(.up)
        let deadline = anchorClock &+ Int64(min(wait, 9e18))
        return .sleep(until: max(deadline, now &+ 1))
    }

    /// The steps after the one shown, in play order (wrapping into later loops, stopping at the
    /// last loop's end), at most `count`.
    func upcomingFrames(count: Int) -> [Int] {
        guard count > 0, let shown, !isFinished else { return [] }
        var frames: [Int] = []
        var position = shown
        while frames.count < count {
            position.step += 1
            if position.step == timeline.steps.count {
                if isGrowing { break }
                position.step = 0
                position.loop += 1
                if loopLimit > 0, position.loop >= loopLimit {
                    if timeline.restsOnFirstStep { frames.append(timeline.steps[timeline.restStep]) }
                    break
                }
            }
            if position == shown { break }
            frames.append(timeline.steps[position.step])
            if frames.count >= timeline.steps.count { break }
        }
        return frames
    }

    /// Whether the step on screen shows `frame` in loop `loop` and is not due to be shown again.
    func isShowing(frame: Int, loop: Int) -> Bool {
        guard let shown, !forceEmit, timeline.steps.indices.contains(shown.step) else { return false }
        return shown.loop == loop && timeline.steps[shown.step] == frame
    }

    // MARK: - Commands

    /// More of a growing animation arrived: `durations` are now every frame there is (a longer
    /// list than before), the last of them when `complete`. Playback goes on from where it is; one
    /// waiting at the last frame goes on at once with the next (the wait is not made up for).
    mutating func extend(durations: [Double], complete: Bool, at now: Int64) {
        guard !isFinished, isGrowing, durations.count >= self.durations.count else { return }
        let oldLength = timeline.loopLength
        anchorMedia = min(mediaTime(at: now), oldLength)
        anchorClock = now
        self.durations = durations
        isGrowing = !complete
        timeline = PlaybackTimeline(durations: durations, mode: .normal)
        if complete, requestedMode != .normal { applyMode(requestedMode) }
    }

    mutating func play(at now: Int64) {
        guard !isFinished, !isPlaying else { return }
        anchorClock = now
        isPlaying = true
    }

    mutating func pause(at now: Int64) {
        guard !isFinished, isPlaying else { return }
        reanchor(at: now)
        isPlaying = false
    }

    /// Stops and goes back to the first step of loop 0 (shown again).
    mutating func stop(at now: Int64) {
        guard !isFinished else { return }
        isPlaying = false
        anchorClock = now
        anchorMedia = 0
        shown = nil
        loopsReported = 0
    }

    /// Moves to the first step showing `frame` in `loop` (both clamped), shown at once.
    mutating func seek(toFrame frame: Int, loop: Int, at now: Int64) {
        guard !isFinished, frameCount > 0 else { return }
        let frame = min(max(0, frame), frameCount - 1)
        var loop = isGrowing ? 0 : max(0, loop)
        if loopLimit > 0 { loop = min(loop, loopLimit - 1) }
        anchorClock = now
        anchorMedia = Int64(loop) * timeline.loopLength + timeline.starts[timeline.firstStep(showing: frame)]
        loopsReported = loop
        forceEmit = true
    }

    /// Changes the speed from now on (negative and NaN count as 0, which holds the position).
    mutating func setRate(_ rate: Double, at now: Int64) {
        guard !isFinished else { return }
        reanchor(at: now)
        self.rate = rate.isFinite ? max(0, rate) : (rate == .infinity ? 1e6 : 0)
    }

    /// Changes the mode from now on, keeping the frame on screen and the time already spent on it
    /// (before anything is shown: from the start of the current loop).
    mutating func setMode(_ mode: AnimatedImagePlayer.PlaybackMode, at now: Int64) {
        guard !isFinished else { return }
        requestedMode = mode
        guard !isGrowing, mode != timeline.mode else { return }
        reanchor(at: now)
        applyMode(mode)
    }

    /// Rebuilds the timeline for `mode` at the anchor, keeping the frame on screen.
    private mutating func applyMode(_ mode: AnimatedImagePlayer.PlaybackMode) {
        let length = timeline.loopLength
        let loop = anchorMedia / length
        let step = timeline.step(at: anchorMedia % length)
        let intoStep = anchorMedia % length - timeline.starts[step]
        let frame = timeline.steps[step]
        timeline = PlaybackTimeline(durations: durations, mode: mode)
        guard shown != nil else {
            // Nothing on screen yet: start where the new mode's loop starts.
            anchorMedia = loop * timeline.loopLength
            return
        }
        let newStep = timeline.firstStep(showing: frame)
        anchorMedia = loop * timeline.loopLength + timeline.starts[newStep] + intoStep
        shown = Position(loop: Int(loop), step: newStep)
    }

    /// Changes how many loops to play (0 = forever); a limit already passed ends playback.
    mutating func setLoopLimit(_ limit: Int) {
        guard !isFinished else { return }
        loopLimit = max(0, limit)
    }

    // MARK: - Time

    /// Media time at clock time `now`.
    func mediaTime(at now: Int64) -> Int64 {
        guard isPlaying, rate > 0, now > anchorClock else { return anchorMedia }
        let advanced = (Double(now - anchorClock) * rate).rounded(.down)
        return anchorMedia &+ Int64(min(advanced, 9e18 - Double(anchorMedia)))
    }

    private mutating func reanchor(at now: Int64) {
        anchorMedia = mediaTime(at: now)
        anchorClock = now
    }

    private mutating func finish() -> Action {
        isFinished = true
        isPlaying = false
        var events: [Event] = []
        if loopsReported < loopLimit { events.append(.loopFinished(completedLoops: loopLimit)) }
        loopsReported = loopLimit
        let rest = Position(loop: loopLimit - 1, step: timeline.restStep)
        if timeline.restsOnFirstStep || shown != rest {
            shown = rest
            return .emit(Emission(frame: timeline.steps[rest.step], loop: rest.loop, eventsBefore: events, finishes: true))
        }
        return .finish(events + [.finished])
    }
}
