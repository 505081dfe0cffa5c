/// Something that holds memory it can give back under pressure: the memory caches and the pools.
/// ``MemoryPressureWatcher`` trims them, caches first.
///
/// ```swift
/// cache.trim(keeping: 0.5)   // the least recently used half of the cost goes
/// ```
public protocol MemoryTrimming: Sendable {
    /// Drops least recently used entries until at most `fraction` (0…1) of the cost held now
    /// remains; 0 empties it.
    func trim(keeping fraction: Double)
}

extension MemoryTrimming {
    /// The cost to keep of `total` when trimming to `fraction`; 0 means empty.
    static func target(of total: Int, keeping fraction: Double) -> Int {
        Int(Double(total) * min(1, max(0, fraction)))
    }
}

extension CostLRU: MemoryTrimming {
    public func trim(keeping fraction: Double) {
        let released = table.withLock { table in
            let target = Self.target(of: table.totalCost, keeping: fraction)
            return target <= 0 ? table.removeAll().compactMap(\.value) : table.evict(costLimit: target, countLimit: 0).map(\.value)
        }
        _ = released  // deinits run here, outside the lock
    }
}

extension MemoryCache: MemoryTrimming {
    public func trim(keeping fraction: Double) {
        let target = Self.target(of: totalCost, keeping: fraction)
        guard target > 0 else { return removeAllImages() }
        trim(toCost: target)
    }
}

extension AnimatedFramePool: MemoryTrimming {
    /// Decoded frames are made again on demand, so any trim drops them all.
    public func trim(keeping fraction: Double) {
        if fraction < 1 { removeAll() }
    }
}

extension PixelStoragePool: MemoryTrimming {
    /// Spare arrays are only kept for speed, so any trim drops them all.
    public func trim(keeping fraction: Double) {
        if fraction < 1 { removeAll() }
    }
}
