/// Any `Clock<Duration>` seen as nanoseconds since the player was made: reading it and sleeping
/// until a point on it, without the clock's own `Instant` type leaking into the player.
struct PlayerClock: Sendable {
    /// Nanoseconds since the clock was wrapped.
    let now: @Sendable () -> Int64
    /// Suspends until `now()` reaches the given nanoseconds; throws when the task is cancelled.
    let sleep: @Sendable (Int64) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { Self.nanoseconds(start.duration(to: clock.now)) }
        sleep = { target in
            try await clock.sleep(until: start.advanced(by: .nanoseconds(target)), tolerance: nil)
        }
    }

    /// A duration as whole nanoseconds, saturating.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole &+ attoseconds / 1_000_000_000
    }
}
