public import Synchronization

/// A thread-safe cache bounded by total cost, least recently used entries out first: the core's
/// LRU table behind one `Mutex`, for caches that keep nothing beside their entries.
///
/// - **Cost** is whatever the owner counts (usually bytes), given with each ``set(_:forKey:cost:)``;
///   a replacement's cost takes the place of the old one's.
/// - **Limits**: ``costLimit`` on the summed cost and ``countLimit`` on the entries (0 or less: no
///   limit, as in ``MemoryCache``); a value costing more than ``entryCostLimit`` (or than the whole
///   ``costLimit``) is refused and replaces nothing, so one large entry cannot empty the cache.
/// - **Locking**: every operation takes the lock once and is O(1); a lookup allocates nothing.
///   Evicted, replaced and removed values are released after the lock is dropped.
///
/// `webimage serve` keeps its rendered results and its originals in two of these; ``MemoryCache``
/// and ``AnimatedFramePool`` keep the same table under their own lock, beside their weak table
/// and per-animation totals. Its methods are inlinable, so they specialise in the module that
/// uses them (the service's lookups take as long as an in-module table's).
///
/// ```swift
/// let results = CostLRU<HashedKey, Data>(costLimit: 192 << 20, entryCostLimit: 48 << 20)
/// results.set(data, forKey: "result:…", cost: data.count)
/// let hit = results.value(forKey: "result:…")
/// ```
public final class CostLRU<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most summed cost kept; 0 or less: no limit.
    public let costLimit: Int
    /// The most entries kept; 0 or less: no limit.
    public let countLimit: Int
    /// Values costing more are not kept; `nil`: only ``costLimit`` applies.
    public let entryCostLimit: Int?
    /// The entries; reachable from the inlinable methods so that they specialise in the caller.
    @usableFromInline let table: Mutex<LRUTable<Key, Value>>

    /// A cache within `costLimit` and `countLimit` (0 or less: no limit) that refuses values
    /// costing more than `entryCostLimit`.
    public init(costLimit: Int, countLimit: Int = 0, entryCostLimit: Int? = nil) {
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.entryCostLimit = entryCostLimit
        table = Mutex(LRUTable())
    }

    /// The value for `key`, now the most recently used; `nil` when absent.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        table.withLock { table in
            guard let slot = table.slot(of: key) else { return nil }
            return table.touch(slot)
        }
    }

    /// Whether `key` is held, without changing its recency.
    @inlinable
    public func contains(_ key: Key) -> Bool {
        table.withLock { $0.slot(of: key) != nil }
    }

    /// Stores `value` for `key` at `cost` (negative counts as 0), most recently used, then evicts
    /// least recently used entries until the limits hold. Returns false, keeping nothing and
    /// leaving an earlier value for `key` in place, when the value costs more than
    /// ``entryCostLimit`` or the whole ``costLimit``.
    @inlinable
    @discardableResult
    public func set(_ value: Value, forKey key: Key, cost: Int) -> Bool {
        let cost = max(0, cost)
        if let entryCostLimit, cost > entryCostLimit { return false }
        if costLimit > 0, cost > costLimit { return false }
        let released = table.withLock { table in
            let replaced = table.set(value, forKey: key, cost: cost)
            return (replaced, table.evict(costLimit: costLimit, countLimit: countLimit))
        }
        _ = released  // deinits run here, outside the lock
        return true
    }

    /// Removes `key`; returns its value.
    @inlinable
    @discardableResult
    public func removeValue(forKey key: Key) -> Value? {
        table.withLock { $0.remove(forKey: key) }
    }

    /// Removes every entry whose key satisfies `shouldRemove` (called under the lock: keep it
    /// cheap); returns how many went. O(count): for rare sweeps such as a purge.
    ///
    /// ```swift
    /// let removed = results.removeAll { $0.string.hasPrefix("result:https://example.com/a.png|") }
    /// ```
    @inlinable
    @discardableResult
    public func removeAll(where shouldRemove: @Sendable (Key) -> Bool) -> Int {
        let released = table.withLock { $0.removeAll(where: shouldRemove) }
        return released.count  // deinits run here, outside the lock
    }

    /// Removes every entry.
    @inlinable
    public func removeAll() {
        let released = table.withLock { $0.removeAll() }
        _ = released
    }

    /// The summed cost of the entries held.
    @inlinable
    public var totalCost: Int { table.withLock { $0.totalCost } }

    /// How many entries are held.
    @inlinable
    public var count: Int { table.withLock { $0.count } }

    /// Keys from most to least recently used (for tests and diagnostics). O(count).
    @inlinable
    public var keysByRecency: [Key] { table.withLock { $0.keysByRecency } }
}

extension CostLRU where Key == HashedKey {
    /// The value for the string `key` (hashed before the lock is taken).
    @inlinable
    public func value(forKey key: String) -> Value? { value(forKey: HashedKey(key)) }

    /// Stores `value` for the string `key` at `cost` (hashed before the lock is taken).
    @inlinable
    @discardableResult
    public func set(_ value: Value, forKey key: String, cost: Int) -> Bool { set(value, forKey: HashedKey(key), cost: cost) }
}
