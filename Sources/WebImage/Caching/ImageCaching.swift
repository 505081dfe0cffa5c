public import Foundation

/// A cache of images and their encoded bytes (SDWebImage's `SDImageCache` protocol).
///
/// The memory path is synchronous: ``memoryImage(forKey:)`` and ``storeInMemory(_:forKey:cost:)``
/// never suspend, so a memory hit costs a lock and a hash lookup. Everything that may touch the
/// disk is `async`; implementations run file and database work off the caller's thread.
///
/// Implementations: ``MemoryCache`` (memory only), `DiskCache` (module `WebImageDiskCache`,
/// disk only), ``TieredCache`` (a cache made of caches; `ImageCache.standard` is memory + disk),
/// and `TestImageCache` in `WebImageTesting`. Every one passes `ImageCachingConformance`.
///
/// ```swift
/// if let image = cache.memoryImage(forKey: key) { return image }          // no await on a hit
/// if let hit = try await cache.query(forKey: key, cacheType: .disk) { … }
/// try await cache.store(CacheItem(image: image, data: bytes), forKey: key, cacheType: .all)
/// ```
public protocol ImageCaching: Sendable {
    /// The image held in memory for `key`, without suspending; `nil` for caches without a memory
    /// tier.
    func memoryImage(forKey key: String) -> Image?

    /// Puts `image` in the memory tier without suspending (a no-op for caches without one).
    func storeInMemory(_ image: Image, forKey key: String, cost: Int?)

    /// Looks `key` up in the tiers `cacheType` names; `nil` on a miss.
    ///
    /// Memory is asked first; a disk hit returns bytes and metadata, and an image when the
    /// cache can decode and `options.decodeImage` is set.
    func query(forKey key: String, cacheType: ImageCacheType, options: CacheQueryOptions) async throws
        -> CacheQueryResult?

    /// Stores `item` in the tiers `cacheType` names: its image in memory, its bytes on disk.
    func store(_ item: CacheItem, forKey key: String, cacheType: ImageCacheType) async throws

    /// Removes `key` from the tiers `cacheType` names.
    func remove(forKey key: String, cacheType: ImageCacheType) async throws

    /// Which of the tiers `cacheType` names hold `key` (``ImageCacheType/none`` when none do).
    func contains(forKey key: String, cacheType: ImageCacheType) async throws -> ImageCacheType

    /// Removes every entry from the tiers `cacheType` names.
    func clear(cacheType: ImageCacheType) async throws

    /// How many entries the tiers `cacheType` names hold (summed over tiers).
    func totalCount(cacheType: ImageCacheType) async throws -> Int

    /// The size of the tiers `cacheType` names, summed: memory cost for memory, bytes for disk.
    func totalSize(cacheType: ImageCacheType) async throws -> Int
}

extension ImageCaching {
    /// Looks `key` up with default options.
    public func query(forKey key: String, cacheType: ImageCacheType = .all) async throws -> CacheQueryResult? {
        try await query(forKey: key, cacheType: cacheType, options: CacheQueryOptions())
    }

    /// Stores an image and/or bytes with metadata.
    public func store(
        image: Image? = nil, data: Data? = nil, metadata: CacheEntryMetadata? = nil,
        forKey key: String, cacheType: ImageCacheType = .all
    ) async throws {
        try await store(CacheItem(image: image, data: data, metadata: metadata), forKey: key, cacheType: cacheType)
    }

    /// Puts `image` in the memory tier, charging ``Image/memoryCost``.
    public func storeInMemory(_ image: Image, forKey key: String) {
        storeInMemory(image, forKey: key, cost: nil)
    }
}
