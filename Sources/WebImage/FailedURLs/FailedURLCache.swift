public import Foundation
import Synchronization

/// A negative cache of URLs that failed, so that a permanently broken URL is not fetched again
/// and again (SDWebImage's `failedURLs`), in memory.
///
/// The cache does not judge failures: the manager records only those that
/// ``FailedURLBlockingPolicy`` (through the loader, or the manager's `shouldBlockFailedURL` hook)
/// says should block. A recorded URL stays blocked for ``timeToLive`` (`nil`: the cache's lifetime,
/// as SDWebImage); a success clears it, and a request with `retryFailed` ignores it.
/// `WebImageDiskCache` has a store that survives the process (`DiskFailedURLStore`).
///
/// ```swift
/// let failed = FailedURLCache(clock: ContinuousClock(), timeToLive: .seconds(3600))
/// if failed.isBlocked(url) { throw WebImageError(.blockedURL, "\(url) failed before") }
/// ```
public final class FailedURLCache<C: Clock>: Sendable where C.Duration == Duration {
    private let clock: C
    /// How long a recorded failure blocks its URL; `nil` for the lifetime of the cache.
    public let timeToLive: Duration?
    /// Each blocked URL's deadline (`nil`: none) and the failure that blocked it.
    private let entries = Mutex<[URL: (deadline: C.Instant?, error: WebImageError)]>([:])

    /// - Parameters:
    ///   - clock: where the time to live is measured (inject a manual clock in tests).
    ///   - timeToLive: how long a failure blocks (`nil`: forever, SDWebImage's behaviour).
    public init(clock: C, timeToLive: Duration? = nil) {
        self.clock = clock
        self.timeToLive = timeToLive
    }

    /// Blocks `url` for the time to live (the caller has decided that `error` blocks).
    public func recordFailure(_ url: URL, error: WebImageError) {
        let deadline = timeToLive.map { clock.now.advanced(by: $0) }
        entries.withLock { $0[url] = (deadline, error) }
    }

    /// Forgets `url` (after a success).
    public func recordSuccess(_ url: URL) {
        _ = entries.withLock { $0.removeValue(forKey: url) }
    }

    /// Whether `url` is blocked now. Expired entries are dropped.
    public func isBlocked(_ url: URL) -> Bool { recordedFailure(url) != nil }

    /// The failure that blocks `url` now, if one does (so that a caller can answer it again as it
    /// was: a 404 stays a 404). Expired entries are dropped.
    public func recordedFailure(_ url: URL) -> WebImageError? {
        let now = clock.now
        return entries.withLock { entries in
            guard let entry = entries[url] else { return nil }
            guard let deadline = entry.deadline, now >= deadline else { return entry.error }
            entries[url] = nil
            return nil
        }
    }

    /// Forgets every URL.
    public func removeAll() { entries.withLock { $0.removeAll() } }

    /// How many URLs are recorded (expired ones included until looked up).
    public var count: Int { entries.withLock { $0.count } }
}
