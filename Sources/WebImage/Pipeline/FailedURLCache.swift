public import Foundation
import Synchronization

/// A negative cache of URLs that failed, so that a permanently broken URL is not fetched again
/// and again (SDWebImage's `failedURLs`), without SDWebImage's flaw of blocking forever by default
/// for every kind of failure.
///
/// Each failure is classified: permanent failures (bad data, invalid URL, 404/410, …) are blocked
/// for ``permanentTTL`` (`nil`: the process lifetime, as SDWebImage); transient ones (cancellation,
/// timeouts, connection failures, 5xx) are never blocked. A success clears the entry, and a request
/// with `retryFailed` ignores it.
///
/// ```swift
/// let failed = FailedURLCache(clock: ContinuousClock(), permanentTTL: .seconds(3600))
/// if failed.isBlocked(url) { throw WebImageError(.blockedURL, "\(url) failed before") }
/// ```
public final class FailedURLCache<C: Clock>: Sendable where C.Duration == Duration {
    /// How a failure counts.
    public enum Classification: Sendable, Equatable {
        /// Block the URL for the permanent TTL.
        case permanent
        /// Block the URL for this long.
        case blockFor(Duration)
        /// Do not block.
        case transient
    }

    private let clock: C
    /// How long a permanent failure blocks its URL; `nil` for the lifetime of the cache.
    public let permanentTTL: Duration?
    private let classify: @Sendable (WebImageError) -> Classification
    private let entries = Mutex<[URL: C.Instant?]>([:])

    /// - Parameters:
    ///   - permanentTTL: how long permanent failures block (`nil`: forever, SDWebImage's behaviour).
    ///   - classify: maps an error to a classification; the default is ``defaultClassification(_:)``.
    public init(
        clock: C, permanentTTL: Duration? = nil,
        classify: @escaping @Sendable (WebImageError) -> Classification = FailedURLCache.defaultClassification
    ) {
        self.clock = clock
        self.permanentTTL = permanentTTL
        self.classify = classify
    }

    /// SDWebImage's rule: failures that say something about the URL itself (invalid URL, bad or
    /// unsupported data, unacceptable status or content type, too large) are permanent; cancellation,
    /// timeouts, connection failures and cache I/O are transient. Loaders refine this per error
    /// (their should-block-failed-URL hook) before the manager records a failure.
    public static func defaultClassification(_ error: WebImageError) -> Classification {
        switch error.code {
        case .invalidURL, .badImageData, .unsupportedFormat, .decodingFailed, .invalidDownloadStatusCode,
            .invalidDownloadContentType, .tooLarge:
            return .permanent
        default:
            return .transient
        }
    }

    /// Records a failure of `url`; returns whether the URL is now blocked.
    @discardableResult
    public func recordFailure(_ url: URL, error: WebImageError) -> Bool {
        let deadline: C.Instant??
        switch classify(error) {
        case .transient: deadline = nil
        case .permanent: deadline = .some(permanentTTL.map { clock.now.advanced(by: $0) })
        case .blockFor(let duration): deadline = .some(clock.now.advanced(by: duration))
        }
        guard let deadline else { return false }
        entries.withLock { $0[url] = deadline }
        return true
    }

    /// Forgets `url` (after a success).
    public func recordSuccess(_ url: URL) {
        _ = entries.withLock { $0.removeValue(forKey: url) }
    }

    /// Whether `url` is blocked now. Expired entries are dropped.
    public func isBlocked(_ url: URL) -> Bool {
        let now = clock.now
        return entries.withLock { entries in
            guard let entry = entries[url] else { return false }
            guard let deadline = entry else { return true }
            if now < deadline { return true }
            entries[url] = nil
            return false
        }
    }

    /// Forgets every URL.
    public func removeAll() { entries.withLock { $0.removeAll() } }

    /// How many URLs are recorded (expired ones included until looked up).
    public var count: Int { entries.withLock { $0.count } }
}
