public import Foundation
import Synchronization

/// An exact LRU cache of decoded images, bounded by total cost and count, with an optional TTL
/// and a per-entry cost limit (SDWebImage's `SDMemoryCache`, without `NSCache`'s guesswork).
///
/// It is the memory side (``ImageMemoryCaching``) of an ``ImageCache``, as it stands.
/// Cost is ``Image/memoryCost``: the bytes of decoded pixels the image holds when it is stored
/// (for a decoded animation, its poster and the frames it has in the ``AnimatedFramePool``). Every
/// operation is O(1) and thread-safe (one `Mutex`); lookups never suspend.
///
/// **Weak cache.** With ``Configuration/usesWeakCache`` (the default, as SDWebImage's
/// `shouldUseWeakMemoryCache`), an image evicted by the cost or count limit is remembered weakly:
/// while something else still holds it, a lookup finds it again and puts it back in the LRU.
/// `Image` is a final class, so a weak reference costs no copy. Expired and removed entries are
/// not remembered.
///
/// ```swift
/// let memory = MemoryCache(configuration: .init(totalCostLimit: 64 << 20, countLimit: 500))
/// memory.setImage(image, forKey: "https://example.com/a.png")
/// let again = memory.image(forKey: "https://example.com/a.png")
/// ```
public final class MemoryCache: ImageMemoryCaching {
    /// Limits of a ``MemoryCache``.
    public struct Configuration: Hashable, Sendable {
        /// The most total cost kept; least recently used images go first. 0 or less: no limit.
        public var totalCostLimit: Int
        /// The most images kept. 0 or less: no limit.
        public var countLimit: Int
        /// Seconds an image stays valid after it was stored; `nil`: forever.
        public var timeToLive: TimeInterval?
        /// Images costing more than this are not kept; `nil`: only ``totalCostLimit`` applies.
        public var entryCostLimit: Int?
        /// Whether evicted images still referenced elsewhere can be found again.
        public var usesWeakCache: Bool

        /// Creates a configuration; by default 15 % of the memory the process may use (its
        /// container's limit, else the RAM; at most 1 GiB), no count limit, no TTL, no per-entry
        /// limit, weak cache on.
        public init(
            totalCostLimit: Int = Configuration.defaultTotalCostLimit,
            countLimit: Int = 0,
            timeToLive: TimeInterval? = nil,
            entryCostLimit: Int? = nil,
            usesWeakCache: Bool = true
        ) {
            self.totalCostLimit = totalCostLimit
            self.countLimit = countLimit
            self.timeToLive = timeToLive
            self.entryCostLimit = entryCostLimit
            self.usesWeakCache = usesWeakCache
        }

        /// 15 % of the memory the process may use (``ContainerMemory/process``: its container's
        /// limit, else the RAM), at most 1 GiB. A container with 512 MB on a 64 GB host gets 76 MB,
        /// not 1 GiB; the frame and pixel pools take their budgets from this figure too.
        public static var defaultTotalCostLimit: Int { defaultTotalCostLimit(for: ContainerMemory.process) }

        /// 15 % of `memory`'s limit, at most 1 GiB.
        public static func defaultTotalCostLimit(for memory: ContainerMemory) -> Int {
            min(memory.limit / 100 * 15, 1 << 30)
        }
    }

    /// The limits this cache enforces.
    public let configuration: Configuration
    private let clock: any CacheClock
    private let state: Mutex<State>

    private struct WeakImage {
        weak var image: Image?
    }

    /// The core's LRU table (shared with ``CostLRU`` and the frame pool) with the weak table
    /// beside it, in one lock: an eviction and its weak entry, or a removal and the weak entry it
    /// drops, are seen together.
    private struct State {
        var table = LRUTable<HashedKey, Image>()
        var weak: [HashedKey: WeakImage] = [:]
        var weakPruneThreshold = 256
    }

    /// Creates a cache with `configuration`, reading time from `clock` for the TTL.
    public init(configuration: Configuration = Configuration(), clock: any CacheClock = SystemCacheClock()) {
        self.configuration = configuration
        self.clock = clock
        self.state = Mutex(State())
    }

    /// The image for `key`, marking it most recently used; `nil` when absent or expired.
    public func image(forKey key: String) -> Image? {
        let key = HashedKey(key)
        let hasTTL = configuration.timeToLive != nil
        let now = hasTTL ? clock.now().timeIntervalSinceReferenceDate : 0
        var released: Image?
        let found: Image? = state.withLock { state in
            if let slot = state.table.slot(of: key) {
                if hasTTL, state.table.nodes[slot].expiresAt <= now {
                    released = state.table.remove(slot: slot)
                    return nil
                }
                return state.table.touch(slot)
            }
            guard configuration.usesWeakCache, let image = state.weak[key]?.image else { return nil }
            // Found again through the weak table: back into the LRU, at the original TTL's length.
            state.weak[key] = nil
            insert(image, forKey: key, cost: image.memoryCost, into: &state, now: now)
            return image
        }
        _ = released
        return found
    }

    /// Stores `image` for `key` at `cost` (default ``Image/memoryCost``), evicting least recently
    /// used images to stay within the limits. An image over ``Configuration/entryCostLimit`` or
    /// ``Configuration/totalCostLimit`` is not kept, and replaces nothing; nor is an image under
    /// the empty key (not a key).
    public func setImage(_ image: Image, forKey key: String, cost: Int? = nil) {
        guard !key.isEmpty else { return }
        let cost = max(0, cost ?? image.memoryCost)
        let now = configuration.timeToLive != nil ? clock.now().timeIntervalSinceReferenceDate : 0
        if let limit = configuration.entryCostLimit, cost > limit { return }
        if configuration.totalCostLimit > 0, cost > configuration.totalCostLimit { return }
        let key = HashedKey(key)
        // Evicted images are released after the lock is dropped (deinit can be arbitrary work).
        let evicted = state.withLock { state in
            state.weak[key] = nil
            return insert(image, forKey: key, cost: cost, into: &state, now: now)
        }
        _ = evicted
    }

    /// Removes `key` (from the weak table too).
    public func removeImage(forKey key: String) {
        let key = HashedKey(key)
        let removed = state.withLock { state in
            state.weak[key] = nil
            return state.table.remove(forKey: key)
        }
        _ = removed
    }

    /// Removes every image (from the weak table too).
    public func removeAllImages() {
        let removed = state.withLock { state in
            state.weak = [:]
            return state.table.removeAll()
        }
        _ = removed
    }

    /// Evicts least recently used images until the total cost is at most `cost` (evicted images
    /// are remembered weakly, as with the limits).
    public func trim(toCost cost: Int) {
        let evicted = state.withLock { state in
            let evictions = state.table.evict(costLimit: max(1, cost), countLimit: 0)
            if configuration.usesWeakCache {
                for eviction in evictions { state.weak[eviction.key] = WeakImage(image: eviction.value) }
            }
            return evictions
        }
        _ = evicted
    }

    /// Removes images whose TTL has passed (lookups already treat them as misses); O(count).
    public func removeExpiredImages() {
        guard configuration.timeToLive != nil else { return }
        let now = clock.now().timeIntervalSinceReferenceDate
        let removed = state.withLock { $0.table.removeExpired(now: now) }
        _ = removed
    }

    /// How many images are held (not counting the weak table).
    public var count: Int { state.withLock { $0.table.count } }

    /// The summed cost of the images held.
    public var totalCost: Int { state.withLock { $0.table.totalCost } }

    /// Keys from most to least recently used.
    public var keysByRecency: [String] { state.withLock { $0.table.keysByRecency.map(\.string) } }

    /// Whether `key` is held, without changing its recency (expired entries count as absent).
    public func containsImage(forKey key: String) -> Bool {
        let key = HashedKey(key)
        let now = configuration.timeToLive != nil ? clock.now().timeIntervalSinceReferenceDate : 0
        return state.withLock { state in
            if let slot = state.table.slot(of: key) {
                return configuration.timeToLive == nil || state.table.nodes[slot].expiresAt > now
            }
            return configuration.usesWeakCache && state.weak[key]?.image != nil
        }
    }

    @discardableResult
    private func insert(_ image: Image, forKey key: HashedKey, cost: Int, into state: inout State, now: Double)
        -> [LRUTable<HashedKey, Image>.Eviction]
    {
        let expiresAt = configuration.timeToLive.map { now + $0 } ?? .infinity
        state.table.set(image, forKey: key, cost: cost, expiresAt: expiresAt)
        let evicted = state.table.evict(costLimit: configuration.totalCostLimit, countLimit: configuration.countLimit)
        if configuration.usesWeakCache, !evicted.isEmpty {
            for eviction in evicted { state.weak[eviction.key] = WeakImage(image: eviction.value) }
            if state.weak.count > state.weakPruneThreshold {
                state.weak = state.weak.filter { $0.value.image != nil }
                state.weakPruneThreshold = max(256, state.weak.count * 2)
            }
        }
        return evicted
    }
}
