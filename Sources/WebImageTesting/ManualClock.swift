import Synchronization

/// A `Clock` that only moves when told to: for deterministic tests of time-to-live and expiry
/// logic written against Swift's `Clock` (e.g. `FailedURLCache`).
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

    private let current = Mutex(Instant(offset: .zero))

    public init() {}

    public var now: Instant { current.withLock { $0 } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the clock forward.
    public func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }

    /// Returns at once: nothing in these tests waits on the manual clock.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
