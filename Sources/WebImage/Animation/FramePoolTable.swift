/// Which frame of which animation: the key of ``AnimatedFramePool``.
struct PooledFrameKey: Hashable {
    /// ``PooledAnimation/id`` of the animation that owns the frame.
    var owner: UInt64
    var index: Int
}

/// The state of ``AnimatedFramePool``: the core's LRU table of frames (the one ``MemoryCache`` and
/// ``CostLRU`` use), plus per-owner totals kept in step with it. Every operation is O(1) except
/// ``removeAll(of:)``, which is O(frames of that owner).
///
/// Not thread-safe by itself: the pool keeps it inside a `Mutex`.
struct FramePoolTable {
    /// What one owner holds.
    struct OwnerTotals {
        var bytes = 0
        var indices: Set<Int> = []
    }

    private var table = LRUTable<PooledFrameKey, AnimationFrame>()
    private(set) var owners: [UInt64: OwnerTotals] = [:]
    var totalBytes: Int { table.totalCost }
    var count: Int { table.count }

    /// The frame for `key`, marking it most recently used.
    mutating func frame(for key: PooledFrameKey) -> AnimationFrame? {
        guard let slot = table.slot(of: key) else { return nil }
        return table.touch(slot)
    }

    /// Whether `key` is held, without touching the order.
    func contains(_ key: PooledFrameKey) -> Bool { table.slot(of: key) != nil }

    /// Inserts (or replaces) `key`, most recently used. Returns the frame it replaced, if any.
    @discardableResult
    mutating func insert(_ frame: AnimationFrame, for key: PooledFrameKey, cost: Int) -> AnimationFrame? {
        let oldCost = table.slot(of: key).map { table.nodes[$0].cost } ?? 0
        let replaced = table.set(frame, forKey: key, cost: cost)
        owners[key.owner, default: OwnerTotals()].bytes += cost - oldCost
        owners[key.owner]?.indices.insert(key.index)
        return replaced
    }

    /// Removes the least recently used frame; nil when empty.
    mutating func removeLeastRecentlyUsed() -> AnimationFrame? {
        guard table.tail >= 0, let key = table.nodes[table.tail].key else { return nil }
        return remove(key)
    }

    /// Removes `key`, returning its frame.
    @discardableResult
    mutating func remove(_ key: PooledFrameKey) -> AnimationFrame? {
        guard let slot = table.slot(of: key) else { return nil }
        let cost = table.nodes[slot].cost
        let frame = table.remove(slot: slot)
        owners[key.owner]?.bytes -= cost
        owners[key.owner]?.indices.remove(key.index)
        if owners[key.owner]?.indices.isEmpty == true { owners[key.owner] = nil }
        return frame
    }

    /// Removes every frame of `owner`, returning them (to be released outside the lock).
    mutating func removeAll(of owner: UInt64) -> [AnimationFrame] {
        guard let indices = owners[owner]?.indices else { return [] }
        return indices.compactMap { remove(PooledFrameKey(owner: owner, index: $0)) }
    }
}
