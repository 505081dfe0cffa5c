public import Foundation
public import Logging
public import Metrics
public import WebImage
public import WebImageDiskCache
public import WebImageRedis

/// The tiers behind the memory cache, composed in one place for the library, the CLI and the
/// service: a local disk cache, a Redis tier shared by several nodes, both, or neither.
///
/// With both, the disk stands in front of Redis as one data tier (``data``): reads ask the disk,
/// then Redis, and a Redis hit is copied to the disk; writes reach both
/// (``WebImageRedis/PromotingDataCache``). With a Redis tier, ``coordinating(_:configuration:keyFilter:logger:metricsFactory:)``
/// wraps the loader so that the nodes sharing it download each source once. An entry whose
/// signature does not verify is a Redis miss, so it never reaches the disk.
///
/// ```swift
/// let tiers = CacheTiers(disk: try DiskCache(namespace: "thumbs"), redis: redis)
/// let coders = ImageCodersManager.standard()
/// let manager = ImageManager(configuration: ImageManager.Configuration(
///     imageCache: tiers.imageCache(decoder: coders),
///     loader: tiers.coordinating(ImageLoadersManager.standard(http: HTTPImageLoader())),
///     coders: coders))
/// // …
/// await tiers.close()
/// ```
public struct CacheTiers: Sendable {
    /// The local disk cache, asked first.
    public let disk: DiskCache?
    /// The tier shared with other nodes, asked on a disk miss.
    public let redis: RedisImageCache?

    /// The tiers `disk` and `redis` (either may be absent).
    public init(disk: DiskCache? = nil, redis: RedisImageCache? = nil) {
        self.disk = disk
        self.redis = redis
    }

    /// The one data tier behind memory: the disk in front of Redis, either alone, or nil.
    public var data: (any ImageDataCaching)? {
        switch (disk, redis) {
        case (let disk?, let redis?): PromotingDataCache(near: disk, far: redis)
        case (let disk?, nil): disk
        case (nil, let redis?): redis
        case (nil, nil): nil
        }
    }

    /// An image cache with `memory` in front of ``data``.
    public func imageCache(
        memory: [any ImageMemoryCaching] = [MemoryCache()], decoder: (any ImageDecoding)? = nil
    ) -> ImageCache {
        ImageCache(memory: memory, data: data.map { [$0] } ?? [], decoder: decoder)
    }

    /// `loader`, wrapped so that nodes sharing the Redis tier download each source once (a
    /// ``WebImageRedis/RedisCoordinatedLoader``, waiting and locking as `configuration` says);
    /// `loader` itself without one. `keyFilter` must be the key filter of the requests whose
    /// sources it loads, so both name the same entry.
    public func coordinating(
        _ loader: any ImageLoading, configuration: RedisCoordinatedLoader.Configuration = .init(),
        keyFilter: (@Sendable (URL) -> String?)? = nil,
        logger: Logger = Logger(label: "WebImage.RedisCoordinatedLoader"), metricsFactory: (any MetricsFactory)? = nil
    ) -> any ImageLoading {
        guard let redis else { return loader }
        return RedisCoordinatedLoader(
            wrapping: loader, cache: redis, configuration: configuration, keyFilter: keyFilter, logger: logger,
            metricsFactory: metricsFactory)
    }

    /// Closes the disk cache (its index is checkpointed) and the Redis connections; call once
    /// when done.
    public func close() async {
        try? await disk?.close()
        await redis?.client.close()
    }
}
