import Synchronization

/// A `Clock` that only moves when told to: for deterministic tests of time-to-live, expiry and
/// playback logic written against Swift's `Clock` (e.g. `FailedURLCache`, `AnimatedImagePlayer`).
///
/// `sleep(until:)` suspends until ``advance(by:)`` reaches the deadline (or the task is
/// cancelled); ``waitForSleepers(_:)`` lets a test wait until the code under test is parked on
/// the clock, so that it can advance time only when nothing is in flight.
///
/// ```swift
/// let clock = ManualClock()
/// let failed = FailedURLCache(clock: clock, timeToLive: .seconds(60))
/// clock.advance(by: .seconds(61))
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the manual time line.
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        var sleepCalls = 0

        /// Removes the waiters satisfied by the current number of sleepers.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = waiters.filter { $0.count <= sleepers.count }
            waiters.removeAll { $0.count <= sleepers.count }
            return ready.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are suspended in ``sleep(until:tolerance:)`` now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How many times ``sleep(until:tolerance:)`` has been called (including those that returned
    /// at once because the deadline had passed).
    public var sleepCallCount: Int { state.withLock { $0.sleepCalls } }

    /// Moves the clock forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Suspends until the clock reaches `deadline`; returns at once when it already has. Throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> UInt64 in
            state.sleepCalls += 1
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> (resumeNow: Bool, waiters: [CheckedContinuation<Void, Never>]) in
                    if deadline <= state.now || Task.isCancelled { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, state.satisfiedWaiters())
                }
                for waiter in outcome.waiters { waiter.resume() }
                if outcome.resumeNow { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Returns once at least `count` tasks are suspended on the clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
