import Foundation
import Synchronization
public import WebImage

/// An ``ImageCaching`` test double: two dictionaries (a "memory" tier of images and a "disk" tier
/// of bytes and metadata) behind one lock, with a log of the operations it received.
///
/// It has no limits and never fails unless told to: set ``failure`` to make every async
/// operation throw it. ``tiers`` says which dictionaries exist: `TestImageCache(tiers: .disk)`
/// stands in for a disk cache (no images), `.memory` for a memory cache (no bytes).
///
/// ```swift
/// let double = TestImageCache()
/// let cache = TieredCache([double, disk])
/// _ = try await cache.query(forKey: "k", cacheType: .all)
/// #expect(double.operations == ["query k all"])
/// ```
public final class TestImageCache: ImageCaching {
    private struct DiskEntry {
        var data: Data
        var metadata: CacheEntryMetadata
    }

    private struct State {
        var images: [String: (image: Image, cost: Int)] = [:]
        var disk: [String: DiskEntry] = [:]
        var operations: [String] = []
        var failure: WebImageError?
    }

    private let state = Mutex(State())
    /// The tiers this double simulates; operations on the others do nothing.
    public let tiers: ImageCacheType

    /// Creates an empty double simulating `tiers` (both by default).
    public init(tiers: ImageCacheType = .all) {
        self.tiers = tiers
    }

    /// Every async operation received, as `"<operation> <key> <cache type>"`, oldest first.
    public var operations: [String] { state.withLock { $0.operations } }

    /// When set, every async operation throws this error.
    public var failure: WebImageError? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }

    /// The image in the memory dictionary.
    public func memoryImage(forKey key: String) -> Image? {
        guard tiers.includesMemory else { return nil }
        return state.withLock { $0.images[key]?.image }
    }

    /// Puts `image` in the memory dictionary.
    public func storeInMemory(_ image: Image, forKey key: String, cost: Int?) {
        guard tiers.includesMemory, !key.isEmpty else { return }
        state.withLock { $0.images[key] = (image, cost ?? image.memoryCost) }
    }

    /// Memory first, then the disk dictionary.
    public func query(forKey key: String, cacheType: ImageCacheType, options: CacheQueryOptions) async throws
        -> CacheQueryResult?
    {
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("query \(key) \(requested)", in: &state)
            let image = cacheType.includesMemory ? state.images[key]?.image : nil
            let disk = cacheType.includesDisk ? state.disk[key] : nil
            if let image {
                let data = options.includeData ? disk : nil
                return CacheQueryResult(image: image, data: data?.data, metadata: data?.metadata, cacheType: .memory)
            }
            guard let disk else { return nil }
            return CacheQueryResult(data: disk.data, metadata: disk.metadata, cacheType: .disk)
        }
    }

    /// Image to memory, bytes (with metadata) to disk.
    public func store(_ item: CacheItem, forKey key: String, cacheType: ImageCacheType) async throws {
        try CacheKeys.validate(key)
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("store \(key) \(requested)", in: &state)
            if cacheType.includesMemory, let image = item.image {
                state.images[key] = (image, item.cost ?? image.memoryCost)
            }
            if cacheType.includesDisk, let data = item.data {
                var metadata = item.metadata ?? CacheEntryMetadata()
                let now = Date()
                metadata.byteSize = data.count
                metadata.createdAt = state.disk[key]?.metadata.createdAt ?? now
                metadata.modifiedAt = now
                metadata.lastAccessAt = now
                state.disk[key] = DiskEntry(data: data, metadata: metadata)
            }
        }
    }

    /// Removes from the named dictionaries.
    public func remove(forKey key: String, cacheType: ImageCacheType) async throws {
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("remove \(key) \(requested)", in: &state)
            if cacheType.includesMemory { state.images[key] = nil }
            if cacheType.includesDisk { state.disk[key] = nil }
        }
    }

    /// Which dictionaries hold `key`.
    public func contains(forKey key: String, cacheType: ImageCacheType) async throws -> ImageCacheType {
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("contains \(key) \(requested)", in: &state)
            return ImageCacheType(
                memory: cacheType.includesMemory && state.images[key] != nil,
                disk: cacheType.includesDisk && state.disk[key] != nil)
        }
    }

    /// Empties the named dictionaries.
    public func clear(cacheType: ImageCacheType) async throws {
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("clear \(requested)", in: &state)
            if cacheType.includesMemory { state.images = [:] }
            if cacheType.includesDisk { state.disk = [:] }
        }
    }

    /// Entries in the named dictionaries.
    public func totalCount(cacheType: ImageCacheType) async throws -> Int {
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("count \(requested)", in: &state)
            return (cacheType.includesMemory ? state.images.count : 0) + (cacheType.includesDisk ? state.disk.count : 0)
        }
    }

    /// Memory cost plus disk bytes in the named dictionaries.
    public func totalSize(cacheType: ImageCacheType) async throws -> Int {
        let requested = cacheType
        let cacheType = cacheType.intersection(tiers)
        return try state.withLock { state in
            try record("size \(requested)", in: &state)
            let memory = cacheType.includesMemory ? state.images.values.reduce(0) { $0 + $1.cost } : 0
            let disk = cacheType.includesDisk ? state.disk.values.reduce(0) { $0 + $1.data.count } : 0
            return memory + disk
        }
    }

    private func record(_ operation: String, in state: inout State) throws {
        state.operations.append(operation)
        if let failure = state.failure { throw failure }
    }
}
