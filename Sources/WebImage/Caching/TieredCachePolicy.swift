/// How a ``TieredCache`` runs one kind of operation over its caches
/// (SDWebImage's `SDImageCachesManagerOperationPolicy`).
///
/// Caches are listed from highest priority (asked first; usually memory) to lowest (usually disk).
public enum TieredCachePolicy: Hashable, Sendable, CaseIterable {
    /// One cache after another, in order; a query or `contains` stops at the first hit.
    case serial
    /// Every cache at once; a query returns the first hit to arrive.
    case concurrent
    /// Only the first (highest-priority) cache.
    case highestOnly
    /// Only the last (lowest-priority) cache.
    case lowestOnly
}

/// The policy per operation of a ``TieredCache``.
///
/// ```swift
/// var policies = TieredCachePolicies()
/// policies.store = .highestOnly      // write only to the first cache
/// ```
public struct TieredCachePolicies: Hashable, Sendable {
    /// How queries run (default ``TieredCachePolicy/serial``: memory, then disk).
    public var query: TieredCachePolicy
    /// How stores run (default ``TieredCachePolicy/concurrent``: every tier).
    public var store: TieredCachePolicy
    /// How removals run (default ``TieredCachePolicy/concurrent``).
    public var remove: TieredCachePolicy
    /// How `contains` runs (default ``TieredCachePolicy/serial``: the first tier holding the key).
    public var contains: TieredCachePolicy
    /// How clearing runs (default ``TieredCachePolicy/concurrent``).
    public var clear: TieredCachePolicy

    /// Creates policies; the defaults suit a memory + disk cache.
    public init(
        query: TieredCachePolicy = .serial,
        store: TieredCachePolicy = .concurrent,
        remove: TieredCachePolicy = .concurrent,
        contains: TieredCachePolicy = .serial,
        clear: TieredCachePolicy = .concurrent
    ) {
        self.query = query
        self.store = store
        self.remove = remove
        self.contains = contains
        self.clear = clear
    }
}
