/// The one least-recently-used table of the library: a hash map into a slab of nodes threaded on
/// a doubly linked list, most recently used at the head, with each entry's cost and expiry.
/// Every operation is O(1) (amortised for the map) except those that say otherwise.
///
/// Not thread-safe by itself: its owner keeps it inside a `Mutex` together with whatever else
/// must change atomically with it — ``CostLRU`` (limits only), ``MemoryCache`` (the weak table),
/// ``AnimatedFramePool`` (per-animation totals, through `FramePoolTable`). Removed values are
/// handed back so the owner releases them after dropping its lock.
///
/// `@usableFromInline` throughout so that ``CostLRU``'s inlinable methods specialise in the
/// modules that use it (unspecialised, a lookup from `WebImageServer` took ~400 ns, not ~100).
@usableFromInline
struct LRUTable<Key: Hashable, Value> {
    @usableFromInline
    struct Node {
        /// `nil` while the slot is free, so a free slot holds no key's storage.
        @usableFromInline var key: Key?
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        /// Seconds since the reference date after which the entry is stale; `.infinity` for never.
        @usableFromInline var expiresAt: Double
        @usableFromInline var previous: Int
        @usableFromInline var next: Int

        @inlinable
        init(key: Key?, value: Value?, cost: Int, expiresAt: Double, previous: Int, next: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.expiresAt = expiresAt
            self.previous = previous
            self.next = next
        }
    }

    /// A value evicted by the limits, handed back so the caller can release it outside the lock.
    @usableFromInline
    struct Eviction {
        @usableFromInline var key: Key
        @usableFromInline var value: Value

        @inlinable
        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    // Written only by the methods below (internal rather than private so they can be inlined).
    @usableFromInline var nodes: [Node] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var index: [Key: Int] = [:]
    /// Most recently used.
    @usableFromInline var head = -1
    /// Least recently used.
    @usableFromInline var tail = -1
    @usableFromInline var totalCost = 0
    @inlinable var count: Int { index.count }

    @inlinable
    init() {}

    /// The node index for `key`, without touching the order.
    @inlinable
    func slot(of key: Key) -> Int? { index[key] }

    /// The value at `slot`, marking it most recently used.
    @inlinable
    mutating func touch(_ slot: Int) -> Value? {
        if slot != head {
            unlink(slot)
            linkAtHead(slot)
        }
        return nodes[slot].value
    }

    /// Inserts or replaces `key`, making it most recently used. Returns the replaced value.
    /// A replacement's cost takes the place of the old one's in ``totalCost``.
    @inlinable
    @discardableResult
    mutating func set(_ value: Value, forKey key: Key, cost: Int, expiresAt: Double = .infinity) -> Value? {
        if let slot = index[key] {
            let old = nodes[slot].value
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            nodes[slot].expiresAt = expiresAt
            if slot != head {
                unlink(slot)
                linkAtHead(slot)
            }
            return old
        }
        let node = Node(key: key, value: value, cost: cost, expiresAt: expiresAt, previous: -1, next: -1)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        index[key] = slot
        totalCost += cost
        linkAtHead(slot)
        return nil
    }

    /// Removes `key`; returns its value.
    @inlinable
    @discardableResult
    mutating func remove(forKey key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        return remove(slot: slot)
    }

    /// Removes the entry at `slot`; returns its value.
    @inlinable
    @discardableResult
    mutating func remove(slot: Int) -> Value? {
        unlink(slot)
        let value = nodes[slot].value
        if let key = nodes[slot].key { index[key] = nil }
        totalCost -= nodes[slot].cost
        nodes[slot].value = nil
        nodes[slot].key = nil
        nodes[slot].cost = 0
        free.append(slot)
        return value
    }

    /// Removes the least recently used entry; `nil` when the table is empty.
    @inlinable
    mutating func removeLeastRecentlyUsed() -> Eviction? {
        guard tail >= 0, let key = nodes[tail].key, let value = remove(slot: tail) else { return nil }
        return Eviction(key: key, value: value)
    }

    /// Removes least recently used entries until both limits hold (a limit of 0 or less is no
    /// limit); returns what was evicted, least recent first (no allocation when nothing is).
    @inlinable
    mutating func evict(costLimit: Int, countLimit: Int) -> [Eviction] {
        var evicted: [Eviction] = []
        while (costLimit > 0 && totalCost > costLimit) || (countLimit > 0 && index.count > countLimit),
            let eviction = removeLeastRecentlyUsed()
        {
            evicted.append(eviction)
        }
        return evicted
    }

    /// Removes every entry whose expiry is at or before `now`; returns their values. O(count).
    @inlinable
    mutating func removeExpired(now: Double) -> [Value] {
        var removed: [Value] = []
        var slot = tail
        while slot >= 0 {
            let previous = nodes[slot].previous
            if nodes[slot].expiresAt <= now, let value = remove(slot: slot) { removed.append(value) }
            slot = previous
        }
        return removed
    }

    /// Removes every entry whose key satisfies `shouldRemove`; returns their values. O(count).
    @inlinable
    mutating func removeAll(where shouldRemove: (Key) -> Bool) -> [Value] {
        var removed: [Value] = []
        var slot = tail
        while slot >= 0 {
            let previous = nodes[slot].previous
            if let key = nodes[slot].key, shouldRemove(key), let value = remove(slot: slot) { removed.append(value) }
            slot = previous
        }
        return removed
    }

    /// Keys from most to least recently used (for tests and diagnostics). O(count).
    @inlinable
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = head
        while slot >= 0 {
            if let key = nodes[slot].key { keys.append(key) }
            slot = nodes[slot].next
        }
        return keys
    }

    /// Empties the table; returns the old nodes so their values are released outside the lock.
    @inlinable
    mutating func removeAll() -> [Node] {
        let old = nodes
        self = LRUTable()
        return old
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }

    @inlinable
    mutating func linkAtHead(_ slot: Int) {
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}
