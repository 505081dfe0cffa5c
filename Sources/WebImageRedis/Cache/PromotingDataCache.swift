public import Foundation
public import WebImage

/// Two data tiers as one: a near tier (a local disk) in front of a far one (Redis shared by
/// several nodes). Reads ask near, then far, and copy a far hit into near so the next read stays
/// local; writes, removals and revalidations reach both; counts and totals are the near tier's.
///
/// A read that near answers never asks far; a failure of either tier is thrown otherwise (a
/// ``RedisImageCache`` degrades to misses and skipped writes on its own when Redis is
/// unavailable: ``RedisImageCache/Configuration/degradesWhenUnavailable``). A failed copy into
/// near is ignored. Only what far returns is copied: a ``RedisImageCache`` returns no entry whose
/// signature fails, so a poisoned Redis entry never reaches the disk.
///
/// ```swift
/// let data = PromotingDataCache(near: try DiskCache(namespace: "thumbs"), far: redis)
/// let cache = ImageCache(memory: [MemoryCache()], data: [data], decoder: coders)
/// ```
public struct PromotingDataCache: ImageDataCaching {
    /// The local tier, asked first.
    public let near: any ImageDataCaching
    /// The shared tier, asked on a near miss.
    public let far: any ImageDataCaching

    /// A cache reading `near` then `far`.
    public init(near: any ImageDataCaching, far: any ImageDataCaching) {
        self.near = near
        self.far = far
    }

    public func entry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)? {
        if let hit = try await near.entry(forKey: key) { return hit }
        guard let hit = try await far.entry(forKey: key) else { return nil }
        try? await near.setData(hit.data, forKey: key, metadata: hit.metadata)
        return hit
    }

    public func setData(_ data: Data, forKey key: String, metadata: CacheEntryMetadata?) async throws {
        try CacheKeys.validate(key)
        async let farStore: Void = far.setData(data, forKey: key, metadata: metadata)
        try await near.setData(data, forKey: key, metadata: metadata)
        try await farStore
    }

    public func removeData(forKey key: String) async throws {
        async let farRemove: Void = far.removeData(forKey: key)
        try await near.removeData(forKey: key)
        try await farRemove
    }

    public func removeAllData() async throws {
        async let farRemove: Void = far.removeAllData()
        try await near.removeAllData()
        try await farRemove
    }

    public func containsData(forKey key: String) async throws -> Bool {
        if try await near.containsData(forKey: key) { return true }
        return try await far.containsData(forKey: key)
    }

    public func count() async throws -> Int { try await near.count() }

    public func totalBytes() async throws -> Int { try await near.totalBytes() }

    @discardableResult
    public func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool {
        async let farUpdated = far.recordRevalidation(forKey: key, http: http)
        let nearUpdated = try await near.recordRevalidation(forKey: key, http: http)
        return try await farUpdated || nearUpdated
    }
}
