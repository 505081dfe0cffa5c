import Synchronization

/// A clock for code that waits between attempts (retries, backoff): it records every wait it is
/// asked for, then sleeps only `scale` of it on the continuous clock, so a test of a 2 s
/// `Retry-After` takes 2 ms and can still check that 2 s was asked for.
///
/// ```swift
/// let clock = FastForwardClock(scale: 0.001)
/// configuration.retryClock = clock
/// // … a load that is retried …
/// #expect(clock.waits.first == .seconds(2))
/// ```
public final class FastForwardClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant
    private let base = ContinuousClock()
    private let recorded = Mutex<[Duration]>([])
    /// The fraction of each wait actually slept.
    public let scale: Double

    /// A clock that sleeps `scale` of every wait (default one thousandth).
    public init(scale: Double = 0.001) {
        self.scale = max(0, scale)
    }

    /// Every wait asked for so far, in order.
    public var waits: [Duration] { recorded.withLock { $0 } }

    public var now: Instant { base.now }
    public var minimumResolution: Duration { base.minimumResolution }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let wait = base.now.duration(to: deadline)
        recorded.withLock { $0.append(max(.zero, wait)) }
        try await base.sleep(for: max(.zero, wait) * scale)
    }
}
