import Synchronization

/// A bounded store of pixel byte arrays, so that a decode or a resize can write into memory an
/// earlier image has already touched instead of a fresh allocation.
///
/// A fresh multi-megabyte array costs a page fault per 4 KB page the first time it is written
/// (a fifth of a large JPEG decode; fresh arrays of 4 MiB or more ask for 2 MB pages, see
/// `HugePages`), and glibc keeps freed blocks of that size in its heap, so a
/// process that allocates and frees frames of one size grows past what it holds. Arrays whose
/// owner knows they are finished go back with `recycle(_:)`; ``take(byteCount:)`` hands
/// out a held array whose capacity fits, or allocates one.
///
/// - The pool holds at most ``budget`` bytes (counted by capacity); the least recently recycled
///   arrays go first, and an array larger than the budget, or under ``minimumByteCount``, is not
///   kept. A budget of 0 disables pooling.
/// - An array serves a request when its capacity is at least the byte count and at most an
///   eighth larger, so a small image never pins a large block.
/// - Value semantics keep reuse safe: an array recycled while another value still shares it is
///   never written under that other owner — the first write after ``take(byteCount:)`` copies it
///   (a missed reuse, never a corruption).
///
/// Thread-safe: one `Mutex` guards the list; dropped arrays are released outside it.
///
/// ```swift
/// let pool = PixelStoragePool.shared
/// let thumbnail = Resampler.resample(decoded, to: PixelSize(width: 256, height: 256))
/// pool.recycle(decoded)                                 // the next decode of this size reuses it
/// PixelStoragePool.shared.budget = 0                    // no pooling at all
/// ```
public final class PixelStoragePool: Sendable {
    /// Counters of a pool, for tests and metrics.
    public struct Statistics: Sendable, Equatable {
        /// Bytes of capacity held now (at most the budget).
        public var bytesHeld = 0
        /// Arrays held now.
        public var arrayCount = 0
        /// The most bytes held at any time.
        public var peakBytesHeld = 0
        /// Requests answered with a held array.
        public var reuseCount = 0
        /// Requests that allocated because no held array fitted.
        public var allocationCount = 0
        /// Held arrays handed out while another value still shared them, so copied (a missed reuse:
        /// the array was recycled by one owner while another still used it).
        public var sharedCount = 0
        /// Arrays accepted by `recycle(_:)`.
        public var recycledCount = 0
        /// Arrays refused (too small, larger than the budget) or evicted to stay within it.
        public var droppedCount = 0
    }

    private struct Entry {
        var bytes: [UInt8]
        var capacity: Int
        /// Where its storage starts: the same storage is never held twice.
        var address: UInt
        /// When it was recycled: larger is more recent.
        var stamp: UInt64
    }

    private struct State {
        var entries: [Entry] = []
        var budget: Int
        var bytesHeld = 0
        var clock: UInt64 = 0
        var statistics = Statistics()
    }

    /// The pool the built-in decoders, the resampler and the animated frame pool use.
    public static let shared = PixelStoragePool()

    /// An eighth of ``MemoryCache/Configuration/defaultTotalCostLimit`` (so at most 128 MiB).
    public static var defaultBudget: Int { MemoryCache.Configuration.defaultTotalCostLimit / 8 }

    /// Arrays smaller than this (64 KiB, a 128×128 bitmap) are not kept: the allocator serves them
    /// cheaply from its own free lists.
    public static let minimumByteCount = 64 << 10

    /// The most arrays held at once, whatever their size.
    public static let maximumArrayCount = 64

    private let state: Mutex<State>

    /// A pool holding at most `budget` bytes of arrays (negative counts as 0).
    public init(budget: Int = PixelStoragePool.defaultBudget) {
        state = Mutex(State(budget: max(0, budget)))
    }

    /// The most bytes of capacity the pool holds; lowering it drops the least recently recycled
    /// arrays until the pool fits, 0 drops them all and disables pooling.
    public var budget: Int {
        get { state.withLock { $0.budget } }
        set {
            let dropped = state.withLock { state -> [Entry] in
                state.budget = max(0, newValue)
                return Self.trim(&state, toFit: 0)
            }
            _ = dropped  // released here, outside the lock
        }
    }

    /// The pool's counters now.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.bytesHeld = state.bytesHeld
            statistics.arrayCount = state.entries.count
            return statistics
        }
    }

    /// Drops every held array.
    public func removeAll() {
        let dropped = state.withLock { state -> [Entry] in
            let old = state.entries
            state.entries = []
            state.bytesHeld = 0
            return old
        }
        _ = dropped
    }

    /// An array of exactly `byteCount` bytes whose **contents are unspecified**: a held array
    /// (bytes of an earlier image) when one fits, otherwise a new, uninitialised one.
    ///
    /// The caller must write every byte before reading any; ``PixelBuffer/init(width:height:alphaMode:storage:initializingWith:)``
    /// is the usual way in.
    public func take(byteCount: Int) -> [UInt8] {
        precondition(byteCount >= 0, "negative byte count")
        if byteCount >= Self.minimumByteCount, var bytes = reuse(byteCount: byteCount) {
            // An array another value still shares is copied by its first write: do that here, so
            // that what is handed out is unique, and count it (a missed reuse).
            let address = Self.address(of: bytes)
            bytes.withUnsafeMutableBufferPointer { _ in }
            if Self.address(of: bytes) != address { state.withLock { $0.statistics.sharedCount += 1 } }
            // Within the capacity, so neither step reallocates (the tail is zeroed, not copied).
            if bytes.count > byteCount {
                bytes.removeSubrange(byteCount...)
            } else if bytes.count < byteCount {
                bytes.append(contentsOf: repeatElement(0, count: byteCount - bytes.count))
            }
            return bytes
        }
        if byteCount >= Self.minimumByteCount { state.withLock { $0.statistics.allocationCount += 1 } }
        return [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
            // Untouched yet: a large one asks for 2 MB pages, so its first write faults 512× less.
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            initialized = byteCount
        }
    }

    /// Gives `bytes` back for a later ``take(byteCount:)``. Arrays under ``minimumByteCount``
    /// or larger than the budget are simply released; the least recently recycled arrays make
    /// room for this one.
    public func recycle(_ bytes: consuming [UInt8]) {
        let capacity = bytes.capacity
        guard capacity >= Self.minimumByteCount else { return }
        let address = Self.address(of: bytes)
        let entry = Entry(bytes: bytes, capacity: capacity, address: address, stamp: 0)
        let dropped = state.withLock { state -> [Entry] in
            // Storage already held (two values sharing it, both recycled) is held once.
            if state.entries.contains(where: { $0.address == address }) { return [] }
            guard capacity <= state.budget else {
                state.statistics.droppedCount += 1
                return [entry]
            }
            let dropped = Self.trim(&state, toFit: capacity)
            state.clock += 1
            var kept = entry
            kept.stamp = state.clock
            state.entries.append(kept)
            state.bytesHeld += capacity
            state.statistics.recycledCount += 1
            state.statistics.peakBytesHeld = max(state.statistics.peakBytesHeld, state.bytesHeld)
            return dropped
        }
        _ = dropped  // released here, outside the lock
    }

    /// Gives the storage of `buffer` back (see `recycle(_:)`).
    public func recycle(_ buffer: consuming PixelBuffer) {
        recycle(buffer.bytes)
    }

    /// Where the storage of `bytes` starts.
    private static func address(of bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Removes and returns the best held array for `byteCount`: the smallest capacity that fits
    /// (at most an eighth over), the most recently recycled among equals.
    private func reuse(byteCount: Int) -> [UInt8]? {
        let ceiling = byteCount + byteCount / 8
        return state.withLock { state -> [UInt8]? in
            var best = -1
            for (index, entry) in state.entries.enumerated() where entry.capacity >= byteCount && entry.capacity <= ceiling {
                if best < 0 || entry.capacity < state.entries[best].capacity
                    || (entry.capacity == state.entries[best].capacity && entry.stamp > state.entries[best].stamp)
                {
                    best = index
                }
            }
            guard best >= 0 else { return nil }
            let entry = state.entries.remove(at: best)
            state.bytesHeld -= entry.capacity
            state.statistics.reuseCount += 1
            return entry.bytes
        }
    }

    /// Drops the least recently recycled arrays until `incoming` more bytes (and one more array)
    /// fit; returns them to be released outside the lock.
    private static func trim(_ state: inout State, toFit incoming: Int) -> [Entry] {
        var dropped: [Entry] = []
        while !state.entries.isEmpty
            && (state.bytesHeld + incoming > state.budget
                || state.entries.count + (incoming > 0 ? 1 : 0) > maximumArrayCount)
        {
            var oldest = 0
            for index in state.entries.indices where state.entries[index].stamp < state.entries[oldest].stamp {
                oldest = index
            }
            let entry = state.entries.remove(at: oldest)
            state.bytesHeld -= entry.capacity
            state.statistics.droppedCount += 1
            dropped.append(entry)
        }
        return dropped
    }
}

extension PixelBuffer {
    /// Creates a buffer whose storage comes from `pool` (memory an earlier image already touched,
    /// when one fits) and lets `body` write **every** byte: the bytes it finds are left over from
    /// that earlier image, or uninitialised.
    ///
    /// When `body` throws, the storage goes back to the pool. The size must be one the caller
    /// trusts (check sizes from input with ``checkSize(_:maxPixelCount:)`` first).
    ///
    /// ```swift
    /// let pixels = try PixelBuffer(width: w, height: h, alphaMode: .straight, storage: .shared) { out in
    ///     try decoder.readRows(into: out)            // writes all w × h × 4 bytes
    /// }
    /// ```
    public init(
        width: Int, height: Int, alphaMode: AlphaMode, storage pool: PixelStoragePool,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let count = PixelSize(width: width, height: height).rgbaByteCount
        precondition(width >= 0 && height >= 0 && count < Int.max, "pixel buffer size \(width)×\(height) overflows")
        var bytes = pool.take(byteCount: count)
        do {
            try bytes.withUnsafeMutableBufferPointer { try body($0) }
        } catch {
            pool.recycle(bytes)
            throw error
        }
        self.init(width: width, height: height, alphaMode: alphaMode, bytes: bytes)
    }

    /// A buffer of one colour in storage from `pool` (a canvas that is drawn on and handed out).
    package init(width: Int, height: Int, alphaMode: AlphaMode, storage pool: PixelStoragePool, fill: RGBA8) {
        self.init(width: width, height: height, alphaMode: alphaMode, storage: pool) { out in
            Self.fill(UnsafeMutableRawBufferPointer(out), with: fill)
        }
    }

    /// A copy of these pixels in storage from `pool`: the usual way to hand out a frame of a
    /// canvas that keeps being drawn on (the canvas stays unshared, so the next frame is drawn in
    /// place instead of copying the canvas on its first write).
    public func copied(storage pool: PixelStoragePool) -> PixelBuffer {
        bytes.withUnsafeBufferPointer { source in
            PixelBuffer(width: width, height: height, alphaMode: alphaMode, storage: pool) { out in
                guard let from = source.baseAddress, let to = out.baseAddress else { return }
                to.update(from: from, count: source.count)
            }
        }
    }
}
