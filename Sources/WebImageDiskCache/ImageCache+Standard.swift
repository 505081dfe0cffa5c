public import WebImage

extension ImageCache {
    /// The default image cache for `namespace`: a ``MemoryCache`` in front of a ``DiskCache``
    /// (SDWebImage's `SDImageCache.sharedImageCache`, built rather than shared). Queries ask memory
    /// then disk, stores and removals reach both, disk hits are decoded with `decoder` (when given)
    /// and put in memory.
    ///
    /// ```swift
    /// import WebImageCodecs
    /// let cache = try ImageCache.standard(namespace: "avatars", decoder: ImageCodersManager.standard())
    /// if let image = cache.memoryImage(forKey: key) { return image }         // synchronous
    /// let hit = try await cache.query(forKey: key, cacheType: .all)          // disk hits are decoded and promoted
    /// ```
    public static func standard(
        namespace: String = "default",
        decoder: (any ImageDecoding)? = nil,
        memory: MemoryCache.Configuration = MemoryCache.Configuration(),
        disk: DiskCacheConfiguration? = nil
    ) throws -> ImageCache {
        let diskCache = try DiskCache(configuration: disk ?? DiskCacheConfiguration(namespace: namespace))
        return ImageCache(memory: [MemoryCache(configuration: memory)], data: [diskCache], decoder: decoder)
    }
}
