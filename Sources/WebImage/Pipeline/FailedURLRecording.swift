public import Foundation

/// Where a manager keeps the URLs that failed: ``FailedURLCache`` over any clock (inject one to
/// test time-to-live expiry).
///
/// ```swift
/// let failed = FailedURLCache(clock: myClock, permanentTTL: .seconds(600), classify: { _ in .permanent })
/// configuration.failedURLs = failed
/// ```
public protocol FailedURLRecording: Sendable {
    /// Whether `url` is blocked now.
    func isBlocked(_ url: URL) -> Bool
    /// Records a failure that the manager's hook (or the loader's rule) says should block `url`.
    @discardableResult
    func recordFailure(_ url: URL, error: WebImageError) -> Bool
    /// Forgets `url` after a success.
    func recordSuccess(_ url: URL)
    /// How many URLs are recorded.
    var count: Int { get }
}

extension FailedURLCache: FailedURLRecording {}
