public import Foundation

extension ImageRequest {
    /// Which caches a request uses, how its keys are made and which tiers it queries and stores
    /// (SDWebImage's `imageCache`, `originalImageCache`, `cacheKeyFilter`, `cacheSerializer`,
    /// `queryCacheType`, `storeCacheType`, `originalQueryCacheType`, `originalStoreCacheType` and
    /// `imageEncodeOptions` context entries).
    ///
    /// ```swift
    /// var request = ImageRequest(url: url)
    /// request.caching.keyFilter = { url in url.absoluteString.components(separatedBy: "?")[0] }
    /// request.caching.storeType = .memory        // keep the result off the disk
    /// ```
    public struct Caching: Sendable {
        /// The cache to use instead of the manager's (`imageCache`).
        public var cache: ImageCache?
        /// The cache for the original image, instead of ``cache`` or the manager's
        /// (`originalImageCache`).
        public var originalCache: ImageCache?
        /// Maps the URL to a cache key (`cacheKeyFilter`). `nil` from the filter disables caching
        /// for the request: nothing is looked up or stored, the image is loaded every time. An
        /// empty key fails the request with ``WebImageError/Code/invalidCacheKey``.
        public var keyFilter: (@Sendable (URL) -> String?)?
        /// Produces the bytes stored on disk (`cacheSerializer`): for a transformed or thumbnail
        /// image (`nil` from it falls back to encoding the image in its source format), and for a
        /// plain download, given the decoded image and the downloaded bytes (`nil` keeps the
        /// downloaded bytes). A thumbnail or first-frame decode never passes through it as the
        /// original.
        public var serializer: (@Sendable (Image, Data?, URL) -> Data?)?
        /// The tiers queried for the final image (`queryCacheType`, default all).
        public var queryType: ImageCacheType = .all
        /// The tiers the final image is stored in (`storeCacheType`, default all).
        public var storeType: ImageCacheType = .all
        /// The tiers queried for the original image when a transformer or thumbnail is set
        /// (`originalQueryCacheType`, default disk).
        public var originalQueryType: ImageCacheType = .disk
        /// The tiers the original bytes are stored in when a transformer or thumbnail is set
        /// (`originalStoreCacheType`, default disk).
        public var originalStoreType: ImageCacheType = .disk
        /// How transformed and thumbnail images are encoded for the disk cache
        /// (`imageEncodeOptions`).
        public var encodeOptions = ImageEncodingOptions()

        /// The defaults: the manager's caches, the URL as the key, every tier for the final image
        /// and the disk for the original.
        public init() {}

        /// Whether a per-request cache or serializer is set (objects and closures that cannot be
        /// compared, so the request shares no job). The key filter is not: its result is the key.
        var hasCustomObjects: Bool { cache != nil || originalCache != nil || serializer != nil }
    }
}
