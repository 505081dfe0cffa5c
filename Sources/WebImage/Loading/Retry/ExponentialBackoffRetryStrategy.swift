/// The standard ``RetryStrategy``: exponential backoff with full jitter and a cap, for transient
/// failures only, `Retry-After` first.
///
/// After failed attempt *n* it waits a random time in `0…min(maximumDelay, baseDelay × 2ⁿ⁻¹)`
/// ("full jitter": callers that failed together do not come back together). A server's
/// `Retry-After` replaces the computed wait, even beyond `maximumDelay`. It gives up on a failure
/// that is not transient (a 404, a bad certificate, a refused URL), after `maximumRetries`
/// retries, and when the wait would end past the request's total deadline.
///
/// ```swift
/// var http = HTTPImageLoaderConfiguration()
/// http.retryStrategy = ExponentialBackoffRetryStrategy(maximumRetries: 3, baseDelay: .milliseconds(100))
/// ```
public struct ExponentialBackoffRetryStrategy: RetryStrategy {
    /// Retries after the first attempt (default 2; 0 never retries).
    public var maximumRetries: Int
    /// The upper bound of the first wait (default 250 ms); each later bound doubles.
    public var baseDelay: Duration
    /// The largest computed wait (default 10 s); a server's `Retry-After` is not capped by it.
    public var maximumDelay: Duration
    /// A uniform random number in `0…1`, the jitter's source (tests make it fixed).
    public var randomFraction: @Sendable () -> Double

    /// A strategy from explicit values.
    public init(
        maximumRetries: Int = 2, baseDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(10),
        randomFraction: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.randomFraction = randomFraction
    }

    public func retryDelay(for failure: RetryContext) -> Duration? {
        guard failure.isTransient, failure.attempt >= 1, failure.attempt <= maximumRetries else { return nil }
        let delay = failure.retryAfter ?? jittered(bound: bound(afterAttempt: failure.attempt))
        if let remaining = failure.remainingTime, delay >= remaining { return nil }
        return delay
    }

    /// The longest computed wait after failed attempt `attempt`:
    /// `min(maximumDelay, baseDelay × 2^(attempt-1))`, without overflowing for large attempts.
    public func bound(afterAttempt attempt: Int) -> Duration {
        var bound = max(.zero, baseDelay)
        var doublings = attempt - 1
        while doublings > 0, bound < maximumDelay {
            bound *= 2
            doublings -= 1
        }
        return min(bound, maximumDelay)
    }

    private func jittered(bound: Duration) -> Duration {
        bound * min(1, max(0, randomFraction()))
    }
}
