public import WebImage

/// ``DiskCache`` as an ``ImageCaching``: it holds bytes and metadata only. Queries return
/// ``CacheQueryResult/data`` with no image (a ``TieredCache`` with a decoder decodes them), and a
/// store without bytes leaves it unchanged.
extension DiskCache {
    /// Always `nil`: the disk cache has no memory tier.
    public func memoryImage(forKey key: String) -> Image? { nil }

    /// Does nothing: the disk cache has no memory tier.
    public func storeInMemory(_ image: Image, forKey key: String, cost: Int?) {}

    /// The bytes and metadata for `key` when `cacheType` includes disk.
    public func query(forKey key: String, cacheType: ImageCacheType, options: CacheQueryOptions) async throws
        -> CacheQueryResult?
    {
        guard cacheType.includesDisk, let found = try await entry(forKey: key) else { return nil }
        return CacheQueryResult(data: found.data, metadata: found.metadata, cacheType: .disk)
    }

    /// Stores the item's bytes and metadata when `cacheType` includes disk.
    public func store(_ item: CacheItem, forKey key: String, cacheType: ImageCacheType) async throws {
        guard cacheType.includesDisk, let data = item.data else { return }
        try await setData(data, forKey: key, metadata: item.metadata)
    }

    /// Removes `key` when `cacheType` includes disk.
    public func remove(forKey key: String, cacheType: ImageCacheType) async throws {
        if cacheType.includesDisk { try await removeData(forKey: key) }
    }

    /// ``ImageCacheType/disk`` when `cacheType` includes disk and `key` has a live entry.
    public func contains(forKey key: String, cacheType: ImageCacheType) async throws -> ImageCacheType {
        guard cacheType.includesDisk else { return .none }
        return try await containsData(forKey: key) ? .disk : .none
    }

    /// Removes every entry when `cacheType` includes disk.
    public func clear(cacheType: ImageCacheType) async throws {
        if cacheType.includesDisk { try await removeAllData() }
    }

    /// The number of entries when `cacheType` includes disk, else 0.
    public func totalCount(cacheType: ImageCacheType) async throws -> Int {
        cacheType.includesDisk ? try await count() : 0
    }

    /// The total bytes when `cacheType` includes disk, else 0.
    public func totalSize(cacheType: ImageCacheType) async throws -> Int {
        cacheType.includesDisk ? try await totalBytes() : 0
    }
}
