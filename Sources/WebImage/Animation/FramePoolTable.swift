/// Which frame of which animation: the key of ``AnimatedFramePool``.
struct PooledFrameKey: Hashable {
    /// ``PooledAnimation/id`` of the animation that owns the frame.
    var owner: UInt64
    var index: Int
}

/// The state of ``AnimatedFramePool``: frames on a doubly linked list threaded through a slab,
/// most recently used at the head, plus per-owner totals. Every operation is O(1) except
/// ``removeAll(of:)``, which is O(frames of that owner).
///
/// Not thread-safe by itself: the pool keeps it inside a `Mutex`.
struct FramePoolTable {
    private struct Node {
        var key: PooledFrameKey
        var frame: AnimationFrame?
        var cost: Int
        var previous = -1
        var next = -1
    }

    /// What one owner holds.
    struct OwnerTotals {
        var bytes = 0
        var indices: Set<Int> = []
    }

    private var nodes: [Node] = []
    private var free: [Int] = []
    private var slots: [PooledFrameKey: Int] = [:]
    private(set) var owners: [UInt64: OwnerTotals] = [:]
    /// Most recently used.
    private var head = -1
    /// Least recently used.
    private var tail = -1
    private(set) var totalBytes = 0
    var count: Int { slots.count }

    /// The frame for `key`, marking it most recently used.
    mutating func frame(for key: PooledFrameKey) -> AnimationFrame? {
        guard let slot = slots[key] else { return nil }
        moveToHead(slot)
        return nodes[slot].frame
    }

    /// Whether `key` is held, without touching the order.
    func contains(_ key: PooledFrameKey) -> Bool { slots[key] != nil }

    /// Inserts (or replaces) `key`, most recently used. Returns the frame it replaced, if any.
    @discardableResult
    mutating func insert(_ frame: AnimationFrame, for key: PooledFrameKey, cost: Int) -> AnimationFrame? {
        if let slot = slots[key] {
            let old = nodes[slot].frame
            adjust(owner: key.owner, by: cost - nodes[slot].cost)
            totalBytes += cost - nodes[slot].cost
            nodes[slot].frame = frame
            nodes[slot].cost = cost
            moveToHead(slot)
            return old
        }
        let node = Node(key: key, frame: frame, cost: cost)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        slots[key] = slot
        linkAtHead(slot)
        totalBytes += cost
        owners[key.owner, default: OwnerTotals()].indices.insert(key.index)
        adjust(owner: key.owner, by: cost)
        return nil
    }

    /// Removes the least recently used frame; nil when empty.
    mutating func removeLeastRecentlyUsed() -> AnimationFrame? {
        guard tail >= 0 else { return nil }
        return remove(nodes[tail].key)
    }

    /// Removes `key`, returning its frame.
    @discardableResult
    mutating func remove(_ key: PooledFrameKey) -> AnimationFrame? {
        guard let slot = slots.removeValue(forKey: key) else { return nil }
        unlink(slot)
        let frame = nodes[slot].frame
        totalBytes -= nodes[slot].cost
        adjust(owner: key.owner, by: -nodes[slot].cost)
        owners[key.owner]?.indices.remove(key.index)
        if owners[key.owner]?.indices.isEmpty == true { owners[key.owner] = nil }
        nodes[slot].frame = nil
        free.append(slot)
        return frame
    }

    /// Removes every frame of `owner`, returning them (to be released outside the lock).
    mutating func removeAll(of owner: UInt64) -> [AnimationFrame] {
        guard let indices = owners[owner]?.indices else { return [] }
        return indices.compactMap { remove(PooledFrameKey(owner: owner, index: $0)) }
    }

    private mutating func adjust(owner: UInt64, by delta: Int) {
        owners[owner, default: OwnerTotals()].bytes += delta
    }

    private mutating func moveToHead(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        linkAtHead(slot)
    }

    private mutating func linkAtHead(_ slot: Int) {
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }
}
