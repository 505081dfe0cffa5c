import Synchronization

/// A retry budget per host: a token bucket filled by requests and emptied by retries, so that
/// retries add at most about `ratio` more requests to a host and an outage never becomes a retry
/// storm (Finagle's and gRPC's retry budgets).
///
/// Each host's bucket starts full, with `capacity` tokens. Every first attempt of a download
/// puts `ratio` of a token back (never above `capacity`); every retry takes one whole token, and
/// a retry that finds less than one is refused. Over any run of requests to one host, retries
/// are therefore at most `capacity + ratio × requests`: with the defaults, 10 plus one in ten.
/// A full bucket is the same as no bucket, so only hosts that retried recently are remembered
/// (at most `maximumHosts`; beyond that the fullest is forgotten).
///
/// One budget is shared by every download of a loader (``HTTPImageLoaderConfiguration``'s
/// `retryBudget`); several loaders may share one.
///
/// ```swift
/// let budget = RetryBudget(ratio: 0.1, capacity: 10)
/// budget.recordRequest(host: "example.com")
/// if budget.withdraw(host: "example.com") { /* retry */ }
/// ```
public final class RetryBudget: Sendable {
    /// Tokens each first attempt puts back (default 0.1: one retry per ten requests).
    public let ratio: Double
    /// The most tokens a host's bucket holds, and what it starts with (default 10).
    public let capacity: Double
    /// The most hosts whose buckets are not full that are remembered (default 10,000).
    public let maximumHosts: Int
    // Tokens are counted in thousandths, so that ten deposits of 0.1 make exactly one.
    private static let unit = 1_000
    private let deposit: Int
    private let full: Int
    private let buckets = Mutex<[String: Int]>([:])

    /// A budget from explicit values; negative values count as zero.
    public init(ratio: Double = 0.1, capacity: Double = 10, maximumHosts: Int = 10_000) {
        self.ratio = max(0, ratio)
        self.capacity = max(0, capacity)
        self.maximumHosts = max(1, maximumHosts)
        deposit = Int((self.ratio * Double(Self.unit)).rounded())
        full = Int((self.capacity * Double(Self.unit)).rounded())
    }

    /// Records a first attempt to `host`: its bucket gains `ratio` tokens, up to `capacity`.
    public func recordRequest(host: String) {
        buckets.withLock { buckets in
            guard let units = buckets[host] else { return }
            let refilled = units + deposit
            buckets[host] = refilled >= full ? nil : refilled
        }
    }

    /// Takes one token from `host`'s bucket for a retry; false (and nothing taken) when it holds
    /// less than one.
    public func withdraw(host: String) -> Bool {
        buckets.withLock { buckets in
            let units = buckets[host] ?? full
            guard units >= Self.unit else { return false }
            buckets[host] = units - Self.unit
            if buckets.count > maximumHosts, let fullest = buckets.max(by: { $0.value < $1.value })?.key {
                buckets[fullest] = nil
            }
            return true
        }
    }

    /// The tokens `host`'s bucket holds now.
    public func tokens(host: String) -> Double {
        Double(buckets.withLock { $0[host] ?? full }) / Double(Self.unit)
    }
}
