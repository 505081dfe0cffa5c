public import Foundation

/// Decides whether, and after how long, a failed load is tried again (Kingfisher's
/// `RetryStrategy`).
///
/// A loader that retries (the HTTP loader does) asks its strategy after every failed attempt of a
/// download, once per download however many callers share it. Returning nil gives up and the
/// load fails with the last error. The loader still enforces the rest: no wait past the request's
/// total deadline, and the per-host ``RetryBudget``.
///
/// ```swift
/// struct TwiceAtOnce: RetryStrategy {
///     func retryDelay(for failure: RetryContext) -> Duration? {
///         failure.isTransient && failure.attempt <= 2 ? .zero : nil
///     }
/// }
/// var request = ImageLoad.Request(url: url)
/// request.retryStrategy = TwiceAtOnce()
/// ```
public protocol RetryStrategy: Sendable {
    /// How long to wait before the next attempt after `failure`, or nil to give up.
    func retryDelay(for failure: RetryContext) -> Duration?
}

/// One failed attempt of a download, as a ``RetryStrategy`` sees it.
public struct RetryContext: Sendable {
    /// The URL the download was asked for.
    public var url: URL
    /// How many attempts have failed so far: 1 after the first.
    public var attempt: Int
    /// Why this attempt failed.
    public var error: WebImageError
    /// Whether the loader judged the failure transient (``TransientFailurePolicy``, and for the HTTP
    /// loader a connection reset or closed early): a 500, 502, 503 or 504, a 408 or 429, a timeout.
    public var isTransient: Bool
    /// The wait the server asked for in `Retry-After` (seconds or an HTTP date), when it sent one.
    public var retryAfter: Duration?
    /// The time left before the request's total deadline, or nil when it has none.
    public var remainingTime: Duration?

    /// A context from explicit values.
    public init(
        url: URL, attempt: Int, error: WebImageError, isTransient: Bool, retryAfter: Duration? = nil,
        remainingTime: Duration? = nil
    ) {
        self.url = url
        self.attempt = attempt
        self.error = error
        self.isTransient = isTransient
        self.retryAfter = retryAfter
        self.remainingTime = remainingTime
    }
}

extension RetryStrategy where Self == ExponentialBackoffRetryStrategy {
    /// Exponential backoff with full jitter: `maximumRetries` more attempts for transient failures.
    ///
    /// ```swift
    /// configuration.retryStrategy = .exponentialBackoff(maximumRetries: 2)
    /// ```
    public static func exponentialBackoff(
        maximumRetries: Int = 2, baseDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(10)
    ) -> ExponentialBackoffRetryStrategy {
        ExponentialBackoffRetryStrategy(maximumRetries: maximumRetries, baseDelay: baseDelay, maximumDelay: maximumDelay)
    }
}
