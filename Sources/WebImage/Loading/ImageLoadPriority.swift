extension ImageLoad {
    /// How urgently a load should start when downloads wait for a free slot.
    ///
    /// SDWebImage's `SDWebImageDownloaderHighPriority` / `LowPriority`. A queued load with a higher
    /// priority starts before every queued load with a lower one, whatever the queue order.
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        /// Starts after every waiting normal- and high-priority load (prefetching).
        case low = -1
        /// The default.
        case normal = 0
        /// Starts before every waiting normal- and low-priority load.
        case high = 1

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}
