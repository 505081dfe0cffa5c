extension ImageCache {
    /// How an ``ImageCache`` runs one kind of operation over the tiers of each side
    /// (SDWebImage's `SDImageCachesManagerOperationPolicy`).
    ///
    /// A policy applies to the memory tiers and to the data tiers separately, each listed from
    /// highest priority (asked first) to lowest: `.highestOnly` stores into the first memory tier
    /// and the first data tier.
    public enum Policy: Hashable, Sendable, CaseIterable {
        /// One tier after another, in order; a query or `contains` stops at the first hit.
        case serial
        /// Every tier at once; a query returns the first data hit to arrive.
        case concurrent
        /// Only the first (highest-priority) tier of each side.
        case highestOnly
        /// Only the last (lowest-priority) tier of each side.
        case lowestOnly

        /// The tiers of one side this policy reaches, in order.
        func select<Tier>(_ tiers: [Tier]) -> [Tier] {
            switch self {
            case .serial, .concurrent: tiers
            case .highestOnly: Array(tiers.prefix(1))
            case .lowestOnly: Array(tiers.suffix(1))
            }
        }
    }

    /// The policy per operation of an ``ImageCache``.
    ///
    /// ```swift
    /// var policies = ImageCache.Policies()
    /// policies.store = .highestOnly      // write only to the first tier of each side
    /// ```
    public struct Policies: Hashable, Sendable {
        /// How queries run (default ``Policy/serial``: memory, then each data tier in turn).
        public var query: Policy
        /// How stores run (default ``Policy/concurrent``: every tier).
        public var store: Policy
        /// How removals run (default ``Policy/concurrent``).
        public var remove: Policy
        /// How `contains` runs (default ``Policy/serial``: the first tier holding the key).
        public var contains: Policy
        /// How clearing runs (default ``Policy/concurrent``).
        public var clear: Policy

        /// Creates policies; the defaults suit a memory + disk cache.
        public init(
            query: Policy = .serial,
            store: Policy = .concurrent,
            remove: Policy = .concurrent,
            contains: Policy = .serial,
            clear: Policy = .concurrent
        ) {
            self.query = query
            self.store = store
            self.remove = remove
            self.contains = contains
            self.clear = clear
        }
    }
}
