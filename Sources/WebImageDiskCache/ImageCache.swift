public import WebImage

/// The default image cache: a ``MemoryCache`` in front of a ``DiskCache``, composed by a
/// ``TieredCache`` (SDWebImage's `SDImageCache.sharedImageCache`, built rather than shared).
///
/// ```swift
/// import WebImageCodecs
/// let cache = try ImageCache.standard(namespace: "avatars", decoder: ImageCodersManager.standard())
/// if let image = cache.memoryImage(forKey: key) { return image }         // synchronous
/// let hit = try await cache.query(forKey: key, cacheType: .all)          // disk hits are decoded and promoted
/// ```
public enum ImageCache {
    /// Memory + disk for `namespace`: queries ask memory then disk, stores and removals reach
    /// both, disk hits are decoded with `decoder` (when given) and put in memory.
    public static func standard(
        namespace: String = "default",
        decoder: (any ImageDecoding)? = nil,
        memory: MemoryCache.Configuration = MemoryCache.Configuration(),
        disk: DiskCacheConfiguration? = nil
    ) throws -> TieredCache {
        let diskCache = try DiskCache(configuration: disk ?? DiskCacheConfiguration(namespace: namespace))
        return TieredCache([MemoryCache(configuration: memory), diskCache], decoder: decoder)
    }
}
