extension ImageRequest {
    /// The on/off switches of a request: the `SDWebImageOptions` that have an effect here.
    ///
    /// SDWebImage's `queryDiskDataSync`, `transformVectorImage` and `avoidDecodeImage` are not
    /// offered: the disk query is always awaited before anything else happens, no vector format is
    /// decoded, and the coders produce pixels while decoding (there is no force-decode step).
    ///
    /// ```swift
    /// var request = ImageRequest(url: url)
    /// request.options = [.retryFailed, .highPriority]
    /// ```
    public struct Options: OptionSet, Hashable, Sendable {
        /// The option bits.
        public let rawValue: UInt32
        /// Creates options from their raw bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Ignore the failed-URL blocklist for this request.
        public static let retryFailed = Options(rawValue: 1 << 0)
        /// Download at low priority (prefetching).
        public static let lowPriority = Options(rawValue: 1 << 1)
        /// Download at high priority.
        public static let highPriority = Options(rawValue: 1 << 2)
        /// Decode the bytes as they arrive and deliver previews through ``ImageTask/previews``: one
        /// incremental decoder per download (``ImageIncrementalDecoding``), at most one preview every
        /// ``ImageManager/Configuration/progressiveInterval``, each at the request's thumbnail size;
        /// never after the final image, never stored in a cache.
        public static let progressiveLoad = Options(rawValue: 1 << 3)
        /// Deliver the cached image, then revalidate it with the stored HTTP validators.
        public static let refreshCached = Options(rawValue: 1 << 4)
        /// Send and store cookies: the download's ``ImageLoad/Request/handlesCookies``. The HTTP
        /// loader then sends the `Cookie` header from its configuration's `cookieStorage` (an
        /// ``HTTPCookieStoring``: `HTTPCookieStorage.shared` by default on Apple platforms, set it
        /// from `WebImageHTTPCookies` on Linux) and stores every `Set-Cookie` it receives,
        /// redirects included. Part of the fetch key: never shares a download with a request
        /// without it.
        public static let handleCookies = Options(rawValue: 1 << 5)
        /// Accept invalid TLS certificates (self-signed, expired, wrong host) for this request:
        /// the download's ``ImageLoad/Request/allowsInvalidCertificates``. The HTTP loader sends it
        /// through a second client that skips certificate verification, never sharing a download
        /// with a strict request. For tests and closed networks only.
        public static let allowInvalidSSLCertificates = Options(rawValue: 1 << 6)
        /// Apply the transformer to animated images too (otherwise they are delivered untransformed).
        public static let transformAnimatedImage = Options(rawValue: 1 << 7)
        /// Scale down images whose decoded size exceeds ``ImageRequest/scaleDownLimitBytes``
        /// (default 60 MB).
        public static let scaleDownLargeImages = Options(rawValue: 1 << 8)
        /// On a memory hit, also read the encoded bytes from disk.
        public static let queryMemoryData = Options(rawValue: 1 << 9)
        /// Never download: a cache miss fails with ``WebImageError/Code/notCached``.
        public static let fromCacheOnly = Options(rawValue: 1 << 11)
        /// Skip the cache query (results are still stored).
        public static let fromLoaderOnly = Options(rawValue: 1 << 12)
        /// Decode only the first frame of animated images. Part of the cache key (`-FirstFrame`):
        /// a first-frame image and the full animation are cached apart.
        public static let decodeFirstFrameOnly = Options(rawValue: 1 << 13)
        /// Decode every animation frame into the frame pool at once (as many as
        /// ``AnimatedFramePool/budget`` holds; see ``PooledAnimation/preloadAllFrames()``).
        public static let preloadAllFrames = Options(rawValue: 1 << 14)
        /// Deliver only after the cache stores (disk included) have finished.
        public static let waitStoreCache = Options(rawValue: 1 << 15)
        /// Copy `file://` and `data:` loads into the disk cache too. Off by default: local bytes
        /// are already on this machine, so only the memory cache keeps them (SDWebImage's rule).
        public static let storeLocalFilesOnDisk = Options(rawValue: 1 << 18)

        // Bits 10, 16 and 17 were SDWebImage's queryDiskDataSync, transformVectorImage and
        // avoidDecodeImage, which did nothing here: removed, and never to be reused.

        /// The flags that only order the work (the download priority): part of no key, so requests
        /// that differ only in them share every job.
        static let scheduling: Options = [.lowPriority, .highPriority]

        /// The flags that change the shared download+decode of the original (its key; see
        /// ``ImageRequest/ResultIdentity``). Every flag but the ``scheduling`` ones is part of the
        /// final image's key; a new flag that changes how the original is fetched or decoded
        /// belongs here too.
        static let sourceAffecting: Options = [
            .fromCacheOnly, .progressiveLoad, .preloadAllFrames, .handleCookies, .allowInvalidSSLCertificates,
            .waitStoreCache, .retryFailed,
        ]
    }
}
