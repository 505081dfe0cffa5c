import Foundation

/// Memory tiers in front of data tiers: the cache the manager queries and stores into
/// (SDWebImage's `SDImageCache` and `SDImageCachesManager`, Nuke's `ImagePipeline.Cache`).
///
/// It composes the two sides of caching: synchronous memory tiers (``ImageMemoryCaching``, such as
/// ``MemoryCache``) and async data tiers (``ImageDataCaching``, such as `WebImageDiskCache`'s
/// `DiskCache`), each listed highest priority first, with a ``Policy`` per operation
/// (``policies``). Operations name the sides they reach with an ``ImageCacheType``: `.memory` the
/// memory tiers, `.disk` the data tiers, `.all` both.
///
/// With a ``decoder``, a data hit is decoded with ``ImageCache/QueryOptions/decodingOptions`` (never on
/// the caller's actor) and the image is put in every memory tier, unless the options ask for a
/// thumbnail or the first frame only: such a decode is returned but never stored under the
/// full-size key. Without a decoder, or with ``ImageCache/QueryOptions/decodeImage`` off, queries return
/// bytes only. Bytes that fail to decode come back as data with no image, as SDWebImage does. An
/// image stored without bytes is encoded for the data tiers by ``encoder`` (``store(_:forKey:cacheType:)``).
///
/// ```swift
/// let cache = ImageCache(memory: [MemoryCache()], data: [try DiskCache(namespace: "avatars")], decoder: coders)
/// if let image = cache.memoryImage(forKey: key) { return image }          // no await on a hit
/// if let hit = try await cache.query(forKey: key, cacheType: .all) { … }  // disk hits decoded, promoted
/// try await cache.store(ImageCache.Item(image: image, data: bytes), forKey: key, cacheType: .all)
/// ```
///
/// `ImageCache.standard(namespace:decoder:)` (module `WebImageDiskCache`) is a ``MemoryCache``
/// in front of a `DiskCache`.
public final class ImageCache: Sendable {
    /// The memory tiers, highest priority first.
    public let memoryTiers: [any ImageMemoryCaching]
    /// The data tiers, highest priority first.
    public let dataTiers: [any ImageDataCaching]
    /// The policy per operation.
    public let policies: Policies
    /// Decodes bytes found on a data tier; `nil` for data-only queries.
    public let decoder: (any ImageDecoding)?
    /// Encodes an image stored without bytes for the data tiers (SDWebImage's `storeImage:` with
    /// no data); `nil` stores such an image in memory only.
    public let encoder: (any ImageEncoding)?

    /// Creates a cache over `memory` and `data` tiers (each highest priority first). Without an
    /// `encoder`, a `decoder` that also encodes (an ``ImageCodersManager``) encodes.
    public init(
        memory: [any ImageMemoryCaching] = [], data: [any ImageDataCaching] = [],
        policies: Policies = Policies(), decoder: (any ImageDecoding)? = nil, encoder: (any ImageEncoding)? = nil
    ) {
        self.memoryTiers = memory
        self.dataTiers = data
        self.policies = policies
        self.decoder = decoder
        self.encoder = encoder ?? decoder as? any ImageEncoding
    }

    /// The first image a memory tier holds for `key`, without suspending; the tiers asked are
    /// those ``Policies/query`` reaches, as for ``query(forKey:cacheType:options:)``.
    public func memoryImage(forKey key: String) -> Image? {
        for tier in policies.query.select(memoryTiers) {
            if let image = tier.image(forKey: key) { return image }
        }
        return nil
    }

    /// Puts `image` in every memory tier, without suspending, charging `cost` (`nil`:
    /// ``Image/memoryCost``).
    public func storeInMemory(_ image: Image, forKey key: String, cost: Int? = nil) {
        for tier in memoryTiers { tier.setImage(image, forKey: key, cost: cost) }
    }

    /// Looks `key` up in the sides `cacheType` names, per ``Policies/query``; `nil` on a miss.
    ///
    /// Memory is asked first. A data hit returns bytes and metadata, and an image when the cache
    /// has a ``decoder`` and `options.decodeImage` is set (promoted to memory per
    /// `options.promoteToMemory`). A memory hit reads the bytes too when `options.includeData`.
    public func query(forKey key: String, cacheType: ImageCacheType, options: ImageCache.QueryOptions) async throws
        -> ImageCache.QueryResult?
    {
        var found: ImageCache.QueryResult?
        if cacheType.includesMemory {
            if let image = memoryImage(forKey: key) { found = ImageCache.QueryResult(image: image, cacheType: .memory) }
            // An image found in memory; the caller may also want the bytes from a data tier.
            if let found, !options.includeData { return found }
        }
        guard cacheType.includesDisk, let entry = try await dataEntry(forKey: key) else { return found }
        if var found {
            found.data = entry.data
            found.metadata = entry.metadata
            return found
        }
        var result = ImageCache.QueryResult(data: entry.data, metadata: entry.metadata, cacheType: .disk)
        if options.decodeImage, let decoder {
            let decoding = options.decodingOptions
            // A thumbnail or a first frame never stands for the full-size image in memory.
            let promote = options.promoteToMemory && decoding.thumbnailPixelSize == nil && !decoding.firstFrameOnly
            result.image = await image(decodingHit: entry.data, forKey: key, promote: promote) { data in
                try decoder.decode(data, options: decoding)
            }
        }
        return result
    }

    /// Looks `key` up with default options.
    public func query(forKey key: String, cacheType: ImageCacheType = .all) async throws -> ImageCache.QueryResult? {
        try await query(forKey: key, cacheType: cacheType, options: ImageCache.QueryOptions())
    }

    /// Makes bytes a data tier returned for `key` into an image: the one place a data hit is
    /// decoded (``query(forKey:cacheType:options:)`` and the manager both come here). `decode`
    /// does the work; bytes it cannot decode give `nil`, and with `promote` the image goes into
    /// every memory tier.
    func image(
        decodingHit data: Data, forKey key: String, promote: Bool, with decode: (Data) async throws -> Image
    ) async -> Image? {
        guard let image = try? await decode(data) else { return nil }
        if promote { storeInMemory(image, forKey: key) }
        return image
    }

    /// The first data hit per ``Policies/query``: in order when serial (or one tier), the first
    /// to arrive when concurrent.
    private func dataEntry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)? {
        let tiers = policies.query.select(dataTiers)
        guard policies.query == .concurrent, tiers.count > 1 else {
            for tier in tiers {
                if let entry = try await tier.entry(forKey: key) { return entry }
            }
            return nil
        }
        return try await withThrowingTaskGroup(of: DataHit?.self) { group in
            for tier in tiers {
                group.addTask { try await tier.entry(forKey: key).map { DataHit(data: $0.data, metadata: $0.metadata) } }
            }
            for try await hit in group {
                if let hit {
                    group.cancelAll()
                    return (hit.data, hit.metadata)
                }
            }
            return nil
        }
    }
}

/// A data tier's answer, as a task group's `Sendable` result.
private struct DataHit: Sendable {
    let data: Data
    let metadata: CacheEntryMetadata
}
