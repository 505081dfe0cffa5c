public import Foundation

/// Where a manager keeps the URLs that failed and are blocked: ``FailedURLCache`` in memory (over
/// any clock, to test time-to-live expiry), or `DiskFailedURLStore` in a disk cache's index, which
/// survives the process.
///
/// A store does not judge failures: the manager hands it only those that its
/// `shouldBlockFailedURL` hook, else the loader's ``FailedURLBlockingPolicy``, says should block.
///
/// ```swift
/// configuration.failedURLs = FailedURLCache(clock: myClock, timeToLive: .seconds(600))
/// ```
public protocol FailedURLRecording: Sendable {
    /// Whether `url` is blocked now.
    func isBlocked(_ url: URL) -> Bool
    /// Blocks `url` for the store's time to live; `error` is the failure that blocked it.
    func recordFailure(_ url: URL, error: WebImageError)
    /// Forgets `url` after a success.
    func recordSuccess(_ url: URL)
    /// How many URLs are recorded.
    var count: Int { get }
}

extension FailedURLCache: FailedURLRecording {}
