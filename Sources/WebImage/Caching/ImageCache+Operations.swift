public import Foundation

/// Store, remove, contains, clear and totals of an ``ImageCache``: each reaches the memory tiers
/// when its cache type includes memory and the data tiers when it includes disk, per its policy.
extension ImageCache {
    /// Stores `item` in the sides `cacheType` names, per ``Policies/store``: its image in memory,
    /// its bytes and metadata on the data tiers. An item with an image but no bytes is encoded for
    /// the data tiers by ``encoder`` (SDWebImage's rule: the image's own format when it can be
    /// written, else PNG when it has alpha and JPEG when not); without an encoder, or with neither
    /// image nor bytes, the data tiers are left unchanged. The empty key throws
    /// ``WebImageError/Code/invalidCacheKey`` before any tier is asked.
    ///
    /// ```swift
    /// try await cache.store(image: edited, forKey: key)      // memory, and encoded bytes on disk
    /// ```
    public func store(_ item: ImageCache.Item, forKey key: String, cacheType: ImageCacheType) async throws {
        try CacheKeys.validate(key)
        if cacheType.includesMemory, let image = item.image {
            for tier in policies.store.select(memoryTiers) { tier.setImage(image, forKey: key, cost: item.cost) }
        }
        guard cacheType.includesDisk, !dataTiers.isEmpty else { return }
        var bytes = item.data
        if bytes == nil, let image = item.image, let encoder { bytes = try Self.encode(image, with: encoder) }
        guard let data = bytes else { return }
        let metadata = item.metadata
        try await runOnData(policies.store) { try await $0.setData(data, forKey: key, metadata: metadata) }
    }

    /// The bytes stored for an image that came without any: its own format when `encoder` writes
    /// it, else PNG with alpha and JPEG without.
    static func encode(_ image: Image, with encoder: any ImageEncoding) throws -> Data {
        let own = image.format
        let format = own != .undefined && encoder.canEncode(own) ? own : (image.hasAlpha ? ImageFormat.png : .jpeg)
        return try encoder.encode(image, as: format, options: ImageEncodingOptions())
    }

    /// Stores an image and/or bytes with metadata.
    public func store(
        image: Image? = nil, data: Data? = nil, metadata: CacheEntryMetadata? = nil,
        forKey key: String, cacheType: ImageCacheType = .all
    ) async throws {
        try await store(ImageCache.Item(image: image, data: data, metadata: metadata), forKey: key, cacheType: cacheType)
    }

    /// Removes `key` from the sides `cacheType` names, per ``Policies/remove``.
    public func remove(forKey key: String, cacheType: ImageCacheType) async throws {
        if cacheType.includesMemory {
            for tier in policies.remove.select(memoryTiers) { tier.removeImage(forKey: key) }
        }
        if cacheType.includesDisk {
            try await runOnData(policies.remove) { try await $0.removeData(forKey: key) }
        }
    }

    /// Which sides of those `cacheType` names hold `key` (``ImageCacheType/none`` when none do),
    /// per ``Policies/contains``: the first tier holding it (memory first) unless concurrent, the
    /// union of every tier's answer when concurrent.
    public func contains(forKey key: String, cacheType: ImageCacheType) async throws -> ImageCacheType {
        let policy = policies.contains
        let inMemory = cacheType.includesMemory && policy.select(memoryTiers).contains { $0.containsImage(forKey: key) }
        if inMemory, policy != .concurrent { return .memory }
        guard cacheType.includesDisk else { return inMemory ? .memory : .none }
        let tiers = policy.select(dataTiers)
        var onDisk = false
        if policy == .concurrent {
            onDisk = try await withThrowingTaskGroup(of: Bool.self) { group in
                for tier in tiers { group.addTask { try await tier.containsData(forKey: key) } }
                return try await group.contains(true)
            }
        } else {
            for tier in tiers {
                if try await tier.containsData(forKey: key) {
                    onDisk = true
                    break
                }
            }
        }
        return ImageCacheType(memory: inMemory, disk: onDisk)
    }

    /// Removes every entry from the sides `cacheType` names, per ``Policies/clear``.
    public func clear(cacheType: ImageCacheType) async throws {
        if cacheType.includesMemory {
            for tier in policies.clear.select(memoryTiers) { tier.removeAllImages() }
        }
        if cacheType.includesDisk {
            try await runOnData(policies.clear) { try await $0.removeAllData() }
        }
    }

    /// How many entries the sides `cacheType` names hold, summed over every tier.
    public func totalCount(cacheType: ImageCacheType) async throws -> Int {
        var total = cacheType.includesMemory ? memoryTiers.reduce(0) { $0 + $1.count } : 0
        if cacheType.includesDisk {
            for tier in dataTiers { total += try await tier.count() }
        }
        return total
    }

    /// The size of the sides `cacheType` names, summed over every tier: memory cost for memory,
    /// bytes for data.
    public func totalSize(cacheType: ImageCacheType) async throws -> Int {
        var total = cacheType.includesMemory ? memoryTiers.reduce(0) { $0 + $1.totalCost } : 0
        if cacheType.includesDisk {
            for tier in dataTiers { total += try await tier.totalBytes() }
        }
        return total
    }

    /// Records a `304 Not Modified` answer for `key` in every data tier
    /// (``ImageDataCaching/recordRevalidation(forKey:http:)``); returns whether any tier updated an
    /// entry.
    ///
    /// ```swift
    /// try await cache.recordRevalidation(forKey: key, http: HTTPCacheMetadata(headers: notModified.headers))
    /// ```
    @discardableResult
    public func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool {
        var updated = false
        for tier in dataTiers {
            if try await tier.recordRevalidation(forKey: key, http: http) { updated = true }
        }
        return updated
    }

    /// Runs `body` on the data tiers `policy` selects: one after another, or all at once when
    /// concurrent.
    private func runOnData(_ policy: Policy, _ body: @escaping @Sendable (any ImageDataCaching) async throws -> Void)
        async throws
    {
        let tiers = policy.select(dataTiers)
        guard policy == .concurrent, tiers.count > 1 else {
            for tier in tiers { try await body(tier) }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tier in tiers { group.addTask { try await body(tier) } }
            try await group.waitForAll()
        }
    }
}
