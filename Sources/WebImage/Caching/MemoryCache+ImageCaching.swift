/// ``MemoryCache`` as an ``ImageCaching``: it holds images only, so disk-only operations find
/// nothing and a store without an image leaves it unchanged.
extension MemoryCache {
    /// The image for `key` (same as ``image(forKey:)``).
    public func memoryImage(forKey key: String) -> Image? { image(forKey: key) }

    /// Stores `image` (same as ``setImage(_:forKey:cost:)``).
    public func storeInMemory(_ image: Image, forKey key: String, cost: Int?) {
        setImage(image, forKey: key, cost: cost)
    }

    /// Finds the image when `cacheType` includes memory.
    public func query(forKey key: String, cacheType: ImageCacheType, options: CacheQueryOptions) async throws
        -> CacheQueryResult?
    {
        guard cacheType.includesMemory, let image = image(forKey: key) else { return nil }
        return CacheQueryResult(image: image, cacheType: .memory)
    }

    /// Stores the item's image when `cacheType` includes memory; the empty key throws
    /// ``WebImageError/Code/invalidCacheKey``.
    public func store(_ item: CacheItem, forKey key: String, cacheType: ImageCacheType) async throws {
        try CacheKeys.validate(key)
        guard cacheType.includesMemory, let image = item.image else { return }
        setImage(image, forKey: key, cost: item.cost)
    }

    /// Removes `key` when `cacheType` includes memory.
    public func remove(forKey key: String, cacheType: ImageCacheType) async throws {
        if cacheType.includesMemory { removeImage(forKey: key) }
    }

    /// ``ImageCacheType/memory`` when `cacheType` includes memory and the image is held.
    public func contains(forKey key: String, cacheType: ImageCacheType) async throws -> ImageCacheType {
        cacheType.includesMemory && containsImage(forKey: key) ? .memory : .none
    }

    /// Removes every image when `cacheType` includes memory.
    public func clear(cacheType: ImageCacheType) async throws {
        if cacheType.includesMemory { removeAllImages() }
    }

    /// ``count`` when `cacheType` includes memory, else 0.
    public func totalCount(cacheType: ImageCacheType) async throws -> Int {
        cacheType.includesMemory ? count : 0
    }

    /// ``totalCost`` when `cacheType` includes memory, else 0.
    public func totalSize(cacheType: ImageCacheType) async throws -> Int {
        cacheType.includesMemory ? totalCost : 0
    }
}
