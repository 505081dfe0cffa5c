/// The state of ``MemoryCache``: a hash map into a slab of nodes threaded on a doubly linked
/// list, most recently used at the head. Every operation is O(1) (amortised for the map).
///
/// Not thread-safe by itself: ``MemoryCache`` keeps it inside a `Mutex`. Values are a generic
/// `AnyObject` so the weak table can hold them weakly.
struct LRUTable<Value: AnyObject> {
    /// A key with its hash computed once, before the caller takes its lock: the map then hashes
    /// one integer inside the critical section instead of the whole string.
    struct Key: Hashable {
        let string: String
        let hash: Int

        init(_ string: String) {
            self.string = string
            hash = string.hashValue
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.hash == rhs.hash && lhs.string == rhs.string }
    }

    struct Node {
        var key: Key
        var value: Value?
        var cost: Int
        /// Seconds since the reference date after which the entry is stale; `.infinity` for never.
        var expiresAt: Double
        var previous: Int
        var next: Int
    }

    /// A value evicted by the limits, handed back so the caller can release it outside the lock.
    struct Eviction {
        var key: Key
        var value: Value
    }

    private(set) var nodes: [Node] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    /// Most recently used.
    private(set) var head = -1
    /// Least recently used.
    private(set) var tail = -1
    private(set) var totalCost = 0
    var count: Int { index.count }

    /// The node index for `key`, without touching the order.
    func slot(of key: Key) -> Int? { index[key] }

    /// The value at `slot`, marking it most recently used.
    mutating func touch(_ slot: Int) -> Value? {
        if slot != head {
            unlink(slot)
            linkAtHead(slot)
        }
        return nodes[slot].value
    }

    /// Inserts or replaces `key`, making it most recently used. Returns the replaced value.
    @discardableResult
    mutating func set(_ value: Value, forKey key: Key, cost: Int, expiresAt: Double) -> Value? {
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
    @discardableResult
    mutating func remove(forKey key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        return remove(slot: slot)
    }

    /// Removes the entry at `slot`; returns its value.
    @discardableResult
    mutating func remove(slot: Int) -> Value? {
        unlink(slot)
        let value = nodes[slot].value
        index[nodes[slot].key] = nil
        totalCost -= nodes[slot].cost
        nodes[slot].value = nil
        nodes[slot].key = Key("")
        free.append(slot)
        return value
    }

    /// Removes least recently used entries until both limits hold (a limit of 0 or less is no
    /// limit); returns what was evicted, least recent first.
    mutating func evict(costLimit: Int, countLimit: Int) -> [Eviction] {
        var evicted: [Eviction] = []
        while tail >= 0,
            (costLimit > 0 && totalCost > costLimit) || (countLimit > 0 && index.count > countLimit)
        {
            let key = nodes[tail].key
            if let value = remove(slot: tail) { evicted.append(Eviction(key: key, value: value)) }
        }
        return evicted
    }

    /// Removes every entry whose expiry is at or before `now`; returns their values.
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

    /// Keys from most to least recently used (for tests and diagnostics).
    var keysByRecency: [String] {
        var keys: [String] = []
        var slot = head
        while slot >= 0 {
            keys.append(nodes[slot].key.string)
            slot = nodes[slot].next
        }
        return keys
    }

    /// Empties the table; returns the values so they can be released outside the lock.
    mutating func removeAll() -> [Node] {
        let old = nodes
        self = LRUTable()
        return old
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }

    private mutating func linkAtHead(_ slot: Int) {
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}
