import Synchronization

/// One memory budget for the decoded frames of every animated image in the process.
///
/// Animated images decoded through ``ImageCodersManager`` get a ``PooledAnimation`` that keeps
/// decoded frames here: ``PooledAnimation/preloadAllFrames()`` and the ``AnimatedImagePlayer``'s
/// buffer fill it, plain ``AnimatedImageSource/frame(at:)`` calls only read it. The pool never
/// holds more than ``budget`` bytes: storing a frame first evicts the least recently used frames,
/// of whichever image, and a frame larger than the whole budget is not kept. A budget of 0 keeps
/// nothing (every frame is decoded when it is shown).
///
/// The default budget is a quarter of the memory cache's default total cost limit
/// (``MemoryCache/Configuration/defaultTotalCostLimit``: 15 % of physical memory, at most 1 GiB),
/// so at most 256 MiB. Change it at any time; lowering it evicts at once.
///
/// Frames evicted to make room for a new one go to ``storage`` (a ``PixelStoragePool``), where
/// the next frame decode finds warm memory of the same size: a player cycling through more frames
/// than the budget holds reuses a few canvases' worth of memory instead of growing the heap.
/// Frames dropped by lowering the budget, ``removeAll()`` or their image's release are freed.
///
/// Thread-safe: one `Mutex` guards the table; evicted frames are released outside it.
///
/// ```swift
/// AnimatedFramePool.shared.budget = 64 << 20          // 64 MiB for all animations
/// let stats = AnimatedFramePool.shared.statistics      // bytes held, evictions, …
/// ```
public final class AnimatedFramePool: Sendable {
    /// Counters of a pool, for tests and metrics.
    public struct Statistics: Sendable, Equatable {
        /// Bytes of decoded frames held now (at most the budget).
        public var bytesHeld = 0
        /// Frames held now.
        public var frameCount = 0
        /// The most bytes held at any time since the pool was made (or ``resetPeak()``).
        public var peakBytesHeld = 0
        /// Frames evicted to make room or because the budget was lowered.
        public var evictionCount = 0
        /// Frames refused because they were larger than the whole budget.
        public var rejectedCount = 0
        /// Lookups that found their frame.
        public var hitCount = 0
        /// Lookups that did not.
        public var missCount = 0
    }

    private struct State {
        var table = FramePoolTable()
        var budget: Int
        var statistics = Statistics()
    }

    /// The pool every ``ImageCodersManager`` uses unless given another.
    public static let shared = AnimatedFramePool()

    /// A quarter of ``MemoryCache/Configuration/defaultTotalCostLimit`` (so at most 256 MiB).
    public static var defaultBudget: Int { MemoryCache.Configuration.defaultTotalCostLimit / 4 }

    private let state: Mutex<State>

    /// Where frames evicted to make room go for reuse by later decodes.
    public let storage: PixelStoragePool

    /// A pool holding at most `budget` bytes of decoded frames (negative counts as 0), whose
    /// evicted frames go to `storage` (the shared storage pool by default).
    public init(budget: Int = AnimatedFramePool.defaultBudget, storage: PixelStoragePool = .shared) {
        state = Mutex(State(budget: max(0, budget)))
        self.storage = storage
    }

    /// The most bytes of decoded frames the pool holds. Lowering it evicts least recently used
    /// frames until the pool fits.
    public var budget: Int {
        get { state.withLock { $0.budget } }
        set {
            let evicted = state.withLock { state -> [AnimationFrame] in
                state.budget = max(0, newValue)
                return Self.trim(&state, toFit: 0)
            }
            _ = evicted  // released here, outside the lock
        }
    }

    /// The pool's counters now.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.bytesHeld = state.table.totalBytes
            statistics.frameCount = state.table.count
            return statistics
        }
    }

    /// Starts ``Statistics/peakBytesHeld`` again from the bytes held now.
    public func resetPeak() {
        state.withLock { $0.statistics.peakBytesHeld = $0.table.totalBytes }
    }

    /// Drops every frame of every animation.
    public func removeAll() {
        let dropped = state.withLock { state -> FramePoolTable in
            let old = state.table
            state.table = FramePoolTable()
            return old
        }
        _ = dropped
    }

    // MARK: - Used by PooledAnimation

    /// The frame `index` of `owner`, marking it most recently used.
    func frame(owner: UInt64, index: Int) -> AnimationFrame? {
        state.withLock { state in
            let frame = state.table.frame(for: PooledFrameKey(owner: owner, index: index))
            if frame == nil { state.statistics.missCount += 1 } else { state.statistics.hitCount += 1 }
            return frame
        }
    }

    /// Whether frame `index` of `owner` is held (not counted as a lookup, order unchanged).
    func contains(owner: UInt64, index: Int) -> Bool {
        state.withLock { $0.table.contains(PooledFrameKey(owner: owner, index: index)) }
    }

    /// Keeps `frame`, evicting least recently used frames to stay within the budget. Returns
    /// false (and keeps nothing) when the frame alone is larger than the budget.
    @discardableResult
    func store(_ frame: AnimationFrame, owner: UInt64, index: Int) -> Bool {
        let cost = frame.pixels.bytes.count
        let key = PooledFrameKey(owner: owner, index: index)
        var released: [AnimationFrame] = []
        let kept = state.withLock { state -> Bool in
            // A replaced frame's bytes do not count against the room the new one needs.
            if let old = state.table.remove(key) { released.append(old) }
            guard cost <= state.budget else {
                state.statistics.rejectedCount += 1
                return false
            }
            released += Self.trim(&state, toFit: cost)
            state.table.insert(frame, for: key, cost: cost)
            state.statistics.peakBytesHeld = max(state.statistics.peakBytesHeld, state.table.totalBytes)
            return true
        }
        // Outside the lock: the evicted frames' storage goes to the storage pool, where the next
        // decode of a frame this size finds it (a frame still shown elsewhere is only shared:
        // whoever takes it copies on the first write).
        for frame in released { storage.recycle(frame.pixels) }
        released.removeAll()
        return kept
    }

    /// Evicts least recently used frames until a frame of `cost` bytes fits beside the rest,
    /// recycling them into ``storage``: called before decoding a frame that will be stored, so the
    /// decode writes into the evicted frame's memory instead of a new block. Does nothing when
    /// such a frame could not be kept at all.
    func makeRoom(for cost: Int) {
        let evicted = state.withLock { state -> [AnimationFrame] in
            guard cost <= state.budget else { return [] }
            return Self.trim(&state, toFit: cost)
        }
        for frame in evicted { storage.recycle(frame.pixels) }
    }

    /// Whether a frame of `cost` bytes could be kept at all.
    func canHold(cost: Int) -> Bool { state.withLock { cost <= $0.budget } }

    /// Bytes held for `owner`.
    func bytes(of owner: UInt64) -> Int { state.withLock { $0.table.owners[owner]?.bytes ?? 0 } }

    /// How many frames are held for `owner`.
    func frameCount(of owner: UInt64) -> Int { state.withLock { $0.table.owners[owner]?.indices.count ?? 0 } }

    /// Drops every frame of `owner`.
    func removeAll(of owner: UInt64) {
        let dropped = state.withLock { $0.table.removeAll(of: owner) }
        _ = dropped
    }

    /// Evicts least recently used frames until `incoming` more bytes fit in the budget.
    private static func trim(_ state: inout State, toFit incoming: Int) -> [AnimationFrame] {
        var evicted: [AnimationFrame] = []
        while state.table.totalBytes + incoming > state.budget, let frame = state.table.removeLeastRecentlyUsed() {
            evicted.append(frame)
            state.statistics.evictionCount += 1
        }
        return evicted
    }
}
