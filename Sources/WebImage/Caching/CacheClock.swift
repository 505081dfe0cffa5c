public import Foundation
import Synchronization

/// Where caches read the current wall-clock time: injected so that TTLs and expiry can be tested
/// without waiting.
///
/// ```swift
/// let clock = ManualCacheClock()
/// let cache = MemoryCache(configuration: .init(timeToLive: 60), clock: clock)
/// clock.advance(by: 61)   // every entry is now expired
/// ```
public protocol CacheClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock (`Date()`).
public struct SystemCacheClock: CacheClock {
    /// Creates the system clock.
    public init() {}

    /// The current system time.
    @inlinable
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to: for tests of TTLs, expiry and sweeps.
public final class ManualCacheClock: CacheClock {
    private let current: Mutex<Date>

    /// Creates a clock showing `start` (by default 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        current = Mutex(start)
    }

    /// The time the clock shows.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward (or backward, with a negative interval).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the time the clock shows.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
