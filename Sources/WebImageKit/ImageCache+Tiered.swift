public import WebImage
public import WebImageDiskCache
public import WebImageRedis

extension ImageCache {
    /// Memory → disk → Redis: a ``MemoryCache`` in front of a ``DiskCache`` in front of a
    /// ``RedisImageCache`` shared with other nodes. Queries ask memory, then disk, then Redis (a
    /// Redis hit is also written to the disk tier, see ``PromotingDataCache``); stores and removals
    /// reach all three. With Redis down, the memory and disk tiers answer alone. An entry whose
    /// signature does not verify is a Redis miss, so it never reaches the disk. The tiers are
    /// composed by ``CacheTiers``.
    ///
    /// ```swift
    /// let redis = RedisImageCache(
    ///     client: RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:6379")),
    ///     keys: RedisEntryKeyring(signing: try RedisEntryKey(parsing: "k1:" + secretHex)))
    /// let cache = try ImageCache.tiered(namespace: "thumbs", decoder: ImageCodersManager.standard(), redis: redis)
    /// ```
    public static func tiered(
        namespace: String = "default",
        decoder: (any ImageDecoding)? = nil,
        memory: MemoryCache.Configuration = MemoryCache.Configuration(),
        disk: DiskCacheConfiguration? = nil,
        redis: RedisImageCache
    ) throws -> ImageCache {
        let tiers = CacheTiers(disk: try DiskCache(configuration: disk ?? DiskCacheConfiguration(namespace: namespace)), redis: redis)
        return tiers.imageCache(memory: [MemoryCache(configuration: memory)], decoder: decoder)
    }
}
