public import Foundation

extension ImageCache {
    /// How to query a cache (SDWebImage's `SDImageCacheOptions` for queries, typed).
    ///
    /// ```swift
    /// var options = ImageCache.QueryOptions()
    /// options.decodingOptions.thumbnailPixelSize = PixelSize(width: 256, height: 256)
    /// options.includeData = true          // also return the encoded bytes
    /// let hit = try await cache.query(forKey: key, cacheType: .all, options: options)
    /// ```
    public struct QueryOptions: Hashable, Sendable {
        /// Decode disk bytes into an ``Image`` when the cache has a decoder (default `true`).
        /// `false` makes a data-only query: disk hits return bytes and metadata only.
        public var decodeImage: Bool
        /// How to decode disk bytes (thumbnail size, scale, limits).
        public var decodingOptions: ImageDecodingOptions
        /// Also return the encoded bytes when the image was found in memory, which reads the disk
        /// (SDWebImage's `SDImageCacheQueryMemoryData`). Disk hits always return their bytes.
        public var includeData: Bool
        /// Put images decoded from disk into the memory tier (default `true`).
        public var promoteToMemory: Bool

        /// Creates query options.
        public init(
            decodeImage: Bool = true,
            decodingOptions: ImageDecodingOptions = ImageDecodingOptions(),
            includeData: Bool = false,
            promoteToMemory: Bool = true
        ) {
            self.decodeImage = decodeImage
            self.decodingOptions = decodingOptions
            self.includeData = includeData
            self.promoteToMemory = promoteToMemory
        }
    }
}

extension ImageCache {
    /// What to store in a cache: a decoded image, its encoded bytes, or both.
    ///
    /// The memory tier keeps the image; the disk tier keeps the bytes (a store with no bytes leaves
    /// the disk tier unchanged: WebImage never re-encodes an image behind the caller's back).
    ///
    /// ```swift
    /// try await cache.store(ImageCache.Item(image: image, data: bytes), forKey: key, cacheType: .all)
    /// ```
    public struct Item: Sendable {
        /// The decoded image, for memory tiers.
        public var image: Image?
        /// The encoded bytes, for disk tiers.
        public var data: Data?
        /// Provenance, HTTP headers and the extension blob stored with the bytes.
        public var metadata: CacheEntryMetadata?
        /// The memory cost to charge for ``image``; `nil` uses ``Image/memoryCost``.
        public var cost: Int?

        /// Creates an item.
        public init(image: Image? = nil, data: Data? = nil, metadata: CacheEntryMetadata? = nil, cost: Int? = nil) {
            self.image = image
            self.data = data
            self.metadata = metadata
            self.cost = cost
        }

        /// An item holding only a decoded image.
        public static func image(_ image: Image, cost: Int? = nil) -> ImageCache.Item { ImageCache.Item(image: image, cost: cost) }

        /// An item holding only encoded bytes (and optional metadata).
        public static func data(_ data: Data, metadata: CacheEntryMetadata? = nil) -> ImageCache.Item {
            ImageCache.Item(data: data, metadata: metadata)
        }
    }
}

extension ImageCache {
    /// What a query found.
    ///
    /// ```swift
    /// if let hit = try await cache.query(forKey: key, cacheType: .all) {
    ///     print(hit.cacheType, hit.image?.pixelSize as Any, hit.data?.count ?? 0)
    /// }
    /// ```
    public struct QueryResult: Sendable {
        /// The decoded image, when found in memory or decoded from disk bytes.
        public var image: Image?
        /// The encoded bytes, when found on disk.
        public var data: Data?
        /// The entry's metadata, when it came from a disk tier.
        public var metadata: CacheEntryMetadata?
        /// The tier the result came from (``ImageCacheType/memory`` or ``ImageCacheType/disk``).
        public var cacheType: ImageCacheType

        /// Creates a result.
        public init(image: Image? = nil, data: Data? = nil, metadata: CacheEntryMetadata? = nil, cacheType: ImageCacheType) {
            self.image = image
            self.data = data
            self.metadata = metadata
            self.cacheType = cacheType
        }
    }
}
