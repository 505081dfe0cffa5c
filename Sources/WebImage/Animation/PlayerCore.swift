import Synchronization

/// What an ``AnimatedImagePlayer`` runs on: the ``PlaybackMachine`` behind a `Mutex`, the
/// stream continuations, and at most one driving task.
///
/// Every command changes the machine, bumps `generation` and replaces the driving task, so a
/// task that was asleep or decoding when the command came can never emit: it compares its
/// generation before every emission, under the same lock. The task holds the core, never the
/// player, so releasing the player runs ``shutDown()``.
final class PlayerCore: Sendable {
    private struct State {
        var machine: PlaybackMachine
        var generation = 0
        var driver: Task<Void, Never>?
        var maxBufferSize = 8
        var status = AnimatedImagePlayer.Status(frameIndex: nil, loop: 0, isPlaying: false, isFinished: false)
        /// Finished, failed or released: commands do nothing from then on.
        var isOver = false
        /// The last frame emitted when the pool did not keep it (a budget too small for it): its
        /// storage goes to the storage pool when the next frame is emitted.
        var shownUnpooled: PixelBuffer?
    }

    private let state: Mutex<State>
    private let animation: PooledAnimation
    private let clock: PlayerClock
    private let frames: AsyncStream<AnimatedImagePlayer.Frame>.Continuation
    private let events: AsyncStream<AnimatedImagePlayer.Event>.Continuation

    init(
        animation: PooledAnimation, clock: PlayerClock,
        frames: AsyncStream<AnimatedImagePlayer.Frame>.Continuation,
        events: AsyncStream<AnimatedImagePlayer.Event>.Continuation
    ) {
        self.animation = animation
        self.clock = clock
        self.frames = frames
        self.events = events
        let durations = (0..<animation.frameCount).map { animation.duration(at: $0) }
        let growing = !((animation.base as? ProgressiveAnimation)?.isComplete ?? true)
        state = Mutex(State(machine: PlaybackMachine(
            durations: durations, mode: .normal, loopLimit: animation.loopCount, growing: growing)))
    }

    /// A ``ProgressiveAnimation`` has more frames (or all of them): playback goes on into them.
    func framesArrived() {
        guard let progressive = animation.base as? ProgressiveAnimation else { return }
        let complete = progressive.isComplete
        let durations = (0..<animation.frameCount).map { animation.duration(at: $0) }
        command { machine, now in machine.extend(durations: durations, complete: complete, at: now) }
    }

    // MARK: - Commands and settings

    /// Applies `change` at the clock's now and restarts the driving task for the new state.
    func command(_ change: (inout PlaybackMachine, Int64) -> Void) {
        let now = clock.now()
        let replaced = state.withLock { state -> Task<Void, Never>? in
            guard !state.isOver else { return nil }
            change(&state.machine, now)
            state.status.isPlaying = state.machine.isPlaying
            state.generation += 1
            let previous = state.driver
            let generation = state.generation
            state.driver = Task { await self.drive(generation: generation) }
            return previous
        }
        replaced?.cancel()
    }

    /// Reads the machine.
    func machine<T>(_ read: (PlaybackMachine) -> T) -> T { state.withLock { read($0.machine) } }

    var maxBufferSize: Int {
        get { state.withLock { $0.maxBufferSize } }
        set { state.withLock { $0.maxBufferSize = newValue } }
    }

    var status: AnimatedImagePlayer.Status { state.withLock { $0.status } }

    /// Cancels the driving task and finishes both streams (the player is gone).
    func shutDown() {
        let driver = state.withLock { state -> Task<Void, Never>? in
            end(&state)
            let driver = state.driver
            state.driver = nil
            return driver
        }
        driver?.cancel()
    }

    // MARK: - Driving

    /// The driving task: asks the machine what to do, emits, buffers ahead and sleeps, until the
    /// machine is idle or ends, or a newer command replaces it.
    private func drive(generation: Int) async {
        var decodeEstimate: Int64 = 0
        while !Task.isCancelled {
            let now = clock.now()
            let action = state.withLock { state -> PlaybackMachine.Action? in
                guard state.generation == generation, !state.isOver else { return nil }
                return state.machine.nextAction(at: now)
            }
            switch action {
            case nil:
                return
            case .emit(let emission):
                let frame: AnimationFrame
                do {
                    frame = try animation.loadFrame(at: emission.frame)
                } catch {
                    fail(error, generation: generation)
                    return
                }
                guard deliver(emission, frame: frame, generation: generation), !emission.finishes else { return }
            case .finish(let last):
                state.withLock { state in
                    guard state.generation == generation, !state.isOver else { return }
                    for event in last { events.yield(event) }
                    end(&state)
                }
                return
            case .sleep(let deadline):
                bufferAhead(before: deadline, generation: generation, estimate: &decodeEstimate)
                do { try await clock.sleep(deadline) } catch { return }
            case .idle:
                state.withLock { if $0.generation == generation { $0.driver = nil } }
                return
            }
        }
    }

    /// Sends an emission's events and frame if this task is still the current one (or the frame
    /// is still the one on screen); true when this task goes on.
    private func deliver(_ emission: PlaybackMachine.Emission, frame: AnimationFrame, generation: Int) -> Bool {
        let pooled = animation.isPooled(emission.frame)
        var done: PixelBuffer?
        defer {
            // The frame shown before, which no pool holds, is finished with here (a consumer still
            // showing it only shares it: the next decode then copies instead of reusing it).
            if let done { animation.pool.storage.recycle(done) }
        }
        return state.withLock { state in
            guard !state.isOver else { return false }
            let current = state.generation == generation
            // A command (new frames arriving, a rate change) that came while this frame was being
            // decoded replaced this task; the machine recorded the frame as shown and will not
            // emit it again, so it is delivered late unless the command moved away from it.
            let late = !current && !emission.finishes
                && state.machine.isShowing(frame: emission.frame, loop: emission.loop)
                && (state.status.frameIndex != emission.frame || state.status.loop != emission.loop)
            guard current || late else { return false }
            done = state.shownUnpooled
            state.shownUnpooled = pooled ? nil : frame.pixels
            for event in emission.eventsBefore { events.yield(event) }
            frames.yield(AnimatedImagePlayer.Frame(
                index: emission.frame, loop: emission.loop, pixels: frame.pixels, duration: frame.duration))
            state.status.frameIndex = emission.frame
            state.status.loop = emission.loop
            if emission.finishes {
                events.yield(.finished)
                end(&state)
            }
            // A late delivery ends this task: the newer one goes on.
            return current
        }
    }

    private func fail(_ error: any Error, generation: Int) {
        let failure = WebImageError.wrapping(error, code: .decodingFailed, "an animation frame failed to decode")
        state.withLock { state in
            guard state.generation == generation, !state.isOver else { return }
            events.yield(.failed(failure))
            end(&state)
        }
    }

    /// Marks playback over and finishes both streams (under the lock).
    private func end(_ state: inout State) {
        guard !state.isOver else { return }
        state.isOver = true
        state.generation += 1
        state.status.isPlaying = false
        state.status.isFinished = true
        frames.finish()
        events.finish()
    }

    /// Decodes upcoming frames missing from the pool while there is time before `deadline`:
    /// at most ``maxBufferSize`` of them, and no more than the pool's budget holds beside the
    /// frame on screen. They are decoded in ascending index order from the frame on screen, so a
    /// source's forward cursor replays at most once per window (even when playing backwards).
    private func bufferAhead(before deadline: Int64, generation: Int, estimate: inout Int64) {
        let frameBytes = max(1, animation.frameByteCount)
        let fitting = animation.pool.budget / frameBytes - 1
        let (window, current) = state.withLock { state -> ([Int], Int) in
            guard state.generation == generation else { return ([], 0) }
            let count = min(state.maxBufferSize, fitting)
            return (state.machine.upcomingFrames(count: count), state.status.frameIndex ?? 0)
        }
        let n = animation.frameCount
        let missing = Set(window.filter { !animation.isPooled($0) })
            .sorted { ($0 > current ? $0 : $0 + n) < ($1 > current ? $1 : $1 + n) }
        for index in missing {
            let start = clock.now()
            guard !Task.isCancelled, start &+ estimate < deadline,
                state.withLock({ $0.generation == generation })
            else { return }
            do { try animation.loadFrame(at: index) } catch { return }  // the emission reports it
            let spent = clock.now() &- start
            estimate = estimate == 0 ? spent : (estimate * 3 + spent) / 4
        }
    }
}
