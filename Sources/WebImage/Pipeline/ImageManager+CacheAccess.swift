import Foundation
import Logging

/// Cache reads and the original's disk write, shared by the stages and the disk-only prefetch.
extension ImageManager {
    /// Looks `key` up: memory synchronously, then the cache's other tiers; disk bytes are decoded
    /// with the request's options and (when `promote`) put in memory. Cache errors count as misses.
    func queryCache(
        _ cache: ImageCache, key: String, cacheType: ImageCacheType, plan: RequestPlan, promote: Bool
    ) async -> CachedImage? {
        let wantsData = plan.options.contains(.queryMemoryData)
        if cacheType.includesMemory, !wantsData, let image = cache.memoryImage(forKey: key) {
            metrics.memoryHits.increment()
            return CachedImage(image: image, cacheType: .memory)
        }
        let options = ImageCache.QueryOptions(
            decodeImage: false, decodingOptions: plan.decoding, includeData: wantsData, promoteToMemory: false)
        let found: ImageCache.QueryResult?
        do {
            found = try await timed(.cacheQuery, plan, key: key, hit: { $0 != nil }) {
                try await cache.query(forKey: key, cacheType: cacheType, options: options)
            }
        } catch {
            logger.warning("cache query for \(key) failed: \(error)")
            return nil
        }
        guard let found else { return nil }
        if let image = found.image {
            if found.cacheType == .memory { metrics.memoryHits.increment() }
            return CachedImage(image: image, data: found.data, cacheType: found.cacheType, metadata: found.metadata)
        }
        guard let data = found.data,
            let image = await cache.image(decodingHit: data, forKey: key, promote: promote && !isStale(found.metadata), with: { data in
                try await decode(data, plan: plan, key: key)
            })
        else { return nil }
        metrics.diskHits.increment()
        return CachedImage(image: image, data: data, cacheType: .disk, metadata: found.metadata)
    }

    /// Writes the original bytes, with the response's validators, to disk (when the plan stores
    /// the original there): as downloaded, or what the request's cache serializer makes of
    /// `image` (SDWebImage's `cacheSerializer` applies to plain downloads too) when `image` is
    /// the full decode of those bytes; a serializer's `nil` keeps the downloaded bytes.
    func storeOriginalBytes(plan: RequestPlan, result: ImageLoad.Result, image: Image? = nil, cache: ImageCache) async throws {
        guard plan.originalStoreType.includesDisk else { return }
        let response = result.response
        let metadata = CacheEntryMetadata(
            originalURL: response.url, contentType: response.contentType, http: response.cacheMetadata)
        let serializer = plan.request.decodesFullImage ? plan.request.caching.serializer : nil
        try await timed(.store, plan, key: plan.originalKey) {
            var bytes = result.data
            if let serializer, let image {
                let url = plan.url
                bytes = try await limiter.run { serializer(image, result.data, url) } ?? result.data
            }
            try await cache.store(ImageCache.Item(data: bytes, metadata: metadata), forKey: plan.originalKey, cacheType: .disk)
        }
    }
}

/// An image found in a cache.
struct CachedImage: Sendable {
    var image: Image
    var data: Data?
    var cacheType: ImageCacheType
    /// The entry's metadata, for a hit from a data tier (memory hits carry none).
    var metadata: CacheEntryMetadata?
}
