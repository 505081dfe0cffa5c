/// A cache made of caches, with a policy per operation (SDWebImage's `SDImageCachesManager`).
///
/// `caches[0]` has the highest priority. With a ``decoder``, a hit that has bytes but no image
/// (a disk hit) is decoded with ``CacheQueryOptions/decodingOptions`` on the concurrency pool,
/// never on the caller's actor, and the image is put in every cache's memory tier
/// (SDWebImage's `SDImageCache` behaviour) unless the decoding options ask for a thumbnail or the
/// first frame only: such a decode is returned but never stored under the full-size key.
/// Without a decoder, or with
/// ``CacheQueryOptions/decodeImage`` off, queries return bytes only. Bytes that fail to decode
/// come back as data with no image, as SDWebImage does.
///
/// ```swift
/// let cache = TieredCache([MemoryCache(), try DiskCache(namespace: "avatars")], decoder: coders)
/// let hit = try await cache.query(forKey: url.absoluteString, cacheType: .all)
/// ```
public final class TieredCache: ImageCaching {
    /// The caches, highest priority first.
    public let caches: [any ImageCaching]
    /// The policy per operation.
    public let policies: TieredCachePolicies
    /// Decodes bytes found without an image; `nil` for data-only caches.
    public let decoder: (any ImageDecoding)?

    /// Creates a tiered cache over `caches` (highest priority first).
    public init(
        _ caches: [any ImageCaching], policies: TieredCachePolicies = TieredCachePolicies(),
        decoder: (any ImageDecoding)? = nil
    ) {
        self.caches = caches
        self.policies = policies
        self.decoder = decoder
    }

    /// The first image any cache holds in memory for `key`, without suspending.
    public func memoryImage(forKey key: String) -> Image? {
        for cache in caches {
            if let image = cache.memoryImage(forKey: key) { return image }
        }
        return nil
    }

    /// Puts `image` in every cache's memory tier, without suspending.
    public func storeInMemory(_ image: Image, forKey key: String, cost: Int?) {
        for cache in caches { cache.storeInMemory(image, forKey: key, cost: cost) }
    }

    /// Queries per ``TieredCachePolicies/query``, then decodes and promotes a bytes-only hit.
    public func query(forKey key: String, cacheType: ImageCacheType, options: CacheQueryOptions) async throws
        -> CacheQueryResult?
    {
        guard cacheType != .none, !caches.isEmpty else { return nil }
        let hit: (result: CacheQueryResult, tier: Int)?
        switch policies.query {
        case .serial: hit = try await querySerially(key, cacheType: cacheType, options: options)
        case .concurrent: hit = try await queryConcurrently(key, cacheType: cacheType, options: options)
        case .highestOnly: hit = try await caches[0].query(forKey: key, cacheType: cacheType, options: options).map { ($0, 0) }
        case .lowestOnly:
            let last = caches.count - 1
            hit = try await caches[last].query(forKey: key, cacheType: cacheType, options: options).map { ($0, last) }
        }
        guard let (found, tier) = hit else { return nil }
        var result = found
        if result.image == nil, options.decodeImage, let decoder, let data = result.data {
            result.image = try? decoder.decode(data, options: options.decodingOptions)
            // A thumbnail or a first frame never stands for the full-size image in memory.
            let decoding = options.decodingOptions
            let fullSize = decoding.thumbnailPixelSize == nil && !decoding.firstFrameOnly
            if let image = result.image, options.promoteToMemory, fullSize {
                for (index, cache) in caches.enumerated() where index != tier {
                    cache.storeInMemory(image, forKey: key, cost: nil)
                }
            }
        }
        return result
    }

    /// Stores per ``TieredCachePolicies/store``; the empty key throws
    /// ``WebImageError/Code/invalidCacheKey`` before any tier is asked.
    public func store(_ item: CacheItem, forKey key: String, cacheType: ImageCacheType) async throws {
        try CacheKeys.validate(key)
        try await run(policies.store) { try await $0.store(item, forKey: key, cacheType: cacheType) }
    }

    /// Removes per ``TieredCachePolicies/remove``.
    public func remove(forKey key: String, cacheType: ImageCacheType) async throws {
        try await run(policies.remove) { try await $0.remove(forKey: key, cacheType: cacheType) }
    }

    /// The tiers holding `key`, per ``TieredCachePolicies/contains``: the first cache's answer
    /// that is not ``ImageCacheType/none`` when serial, the union of all answers when concurrent.
    public func contains(forKey key: String, cacheType: ImageCacheType) async throws -> ImageCacheType {
        guard cacheType != .none else { return .none }
        switch policies.contains {
        case .serial:
            for cache in caches {
                let found = try await cache.contains(forKey: key, cacheType: cacheType)
                if found != .none { return found }
            }
            return .none
        case .concurrent:
            return try await withThrowingTaskGroup(of: ImageCacheType.self) { group in
                for cache in caches { group.addTask { try await cache.contains(forKey: key, cacheType: cacheType) } }
                return try await group.reduce(ImageCacheType.none) { $0.union($1) }
            }
        case .highestOnly:
            return try await caches.first?.contains(forKey: key, cacheType: cacheType) ?? .none
        case .lowestOnly:
            return try await caches.last?.contains(forKey: key, cacheType: cacheType) ?? .none
        }
    }

    /// Clears per ``TieredCachePolicies/clear``.
    public func clear(cacheType: ImageCacheType) async throws {
        try await run(policies.clear) { try await $0.clear(cacheType: cacheType) }
    }

    /// The sum of every cache's count.
    public func totalCount(cacheType: ImageCacheType) async throws -> Int {
        var total = 0
        for cache in caches { total += try await cache.totalCount(cacheType: cacheType) }
        return total
    }

    /// The sum of every cache's size.
    public func totalSize(cacheType: ImageCacheType) async throws -> Int {
        var total = 0
        for cache in caches { total += try await cache.totalSize(cacheType: cacheType) }
        return total
    }

    private func querySerially(_ key: String, cacheType: ImageCacheType, options: CacheQueryOptions) async throws
        -> (CacheQueryResult, Int)?
    {
        var found: (result: CacheQueryResult, tier: Int)?
        for (index, cache) in caches.enumerated() {
            if var current = found {
                // An image found in memory; the caller also wants the bytes from a lower tier.
                guard let more = try await cache.query(forKey: key, cacheType: cacheType, options: options),
                    let data = more.data
                else { continue }
                current.result.data = data
                current.result.metadata = more.metadata
                return current
            }
            guard let result = try await cache.query(forKey: key, cacheType: cacheType, options: options) else {
                continue
            }
            if result.image != nil, result.data == nil, options.includeData, cacheType.includesDisk {
                found = (result, index)
                continue
            }
            return (result, index)
        }
        return found
    }

    private func queryConcurrently(_ key: String, cacheType: ImageCacheType, options: CacheQueryOptions)
        async throws -> (CacheQueryResult, Int)?
    {
        try await withThrowingTaskGroup(of: (CacheQueryResult, Int)?.self) { group in
            for (index, cache) in caches.enumerated() {
                group.addTask { try await cache.query(forKey: key, cacheType: cacheType, options: options).map { ($0, index) } }
            }
            for try await hit in group {
                if let hit {
                    group.cancelAll()
                    return hit
                }
            }
            return nil
        }
    }

    private func run(_ policy: TieredCachePolicy, _ body: @escaping @Sendable (any ImageCaching) async throws -> Void)
        async throws
    {
        switch policy {
        case .serial:
            for cache in caches { try await body(cache) }
        case .concurrent:
            try await withThrowingTaskGroup(of: Void.self) { group in
                for cache in caches { group.addTask { try await body(cache) } }
                try await group.waitForAll()
            }
        case .highestOnly:
            if let first = caches.first { try await body(first) }
        case .lowestOnly:
            if let last = caches.last { try await body(last) }
        }
    }
}
