import Foundation

extension ImageRequest {
    /// What makes a request's result what it is: the one description from which the original key,
    /// the cache key and the keys of the shared jobs are all computed.
    ///
    /// - ``source`` is what the shared download+decode of the original makes: the URL, the
    ///   original key, the decode options (thumbnail size and aspect, first frame, scale,
    ///   scale-down limit) and the flags that change the fetch. Requests with equal sources share
    ///   the download and the decode, whatever their transformers.
    /// - The whole identity adds what the final stage does: the transformer's key, every flag but
    ///   the priority flags, the cache tiers and the disk encoding. Requests with equal identities
    ///   share the final-image job.
    /// - ``cacheKey`` names the result among cached results: the original key, then a suffix for
    ///   the thumbnail (size and aspect), for first-frame-only and for the transformer. The scale,
    ///   the scale-down limit, the flags and the tiers are deliberately not in it (SDWebImage's
    ///   keys; the existing caches stay valid).
    ///
    /// Not in it at all: the priority flags (``Options/scheduling``), ``userInfo``, and the
    /// per-request objects and closures (caches, serializer, coder, loader and its hooks): a
    /// request carrying one of those shares no job (``hasCustomComponents``).
    ///
    /// Adding a field that changes the result is one edit here: a property (in ``Source`` when the
    /// download or decode depends on it) filled in ``ImageRequest/identity(url:originalKey:)``,
    /// and a suffix in ``cacheKey`` when cached results must be kept apart by it.
    struct ResultIdentity: Hashable, Sendable {
        /// What the shared download+decode of the original depends on.
        struct Source: Hashable, Sendable {
            /// Where the bytes come from.
            var url: URL
            /// Where they come from when ``url`` fails (not in the cache key: the result is
            /// ``url``'s image however it was obtained).
            var fallbackURLs: [URL]
            /// The original's cache key: the URL through the key filter (the URL's absolute string
            /// when the filter turned caching off).
            var originalKey: String
            /// How the bytes are decoded.
            var decoding: ImageDecodingOptions
            /// The flags that change the fetch (``Options/sourceAffecting``).
            var flags: Options
            /// Whether the bytes come from a data provider (``ImageRequest/dataProvider``), named
            /// by its cache key, rather than from ``url``.
            var isProvided = false
        }

        /// The original, as downloaded and decoded.
        var source: Source
        /// The transformer's key, when there is a transformer.
        var transformerKey: String?
        /// Every flag but the priority flags.
        var flags: Options
        /// The tiers queried and stored, for the final image and for the original.
        var queryType: ImageCacheType
        var storeType: ImageCacheType
        var originalQueryType: ImageCacheType
        var originalStoreType: ImageCacheType
        /// How a derived image is encoded for the disk.
        var encodeOptions: ImageEncodingOptions

        /// The key of the final image: the original key, then `-Thumbnail({w,h},aspect)`, then
        /// `-Draft`, `-Premultiplied`, `-Color(…)`, `-Metadata(…)`, `-FirstFrame`, then `-<transformer key>` (each before the
        /// path extension, each only when it applies).
        var cacheKey: String {
            var key = source.originalKey
            let decoding = source.decoding
            if let size = decoding.thumbnailPixelSize {
                key = CacheKeys.thumbnailed(key, size: size, preserveAspectRatio: decoding.preserveAspectRatio)
            }
            if decoding.draft { key = CacheKeys.drafted(key) }
            if decoding.alphaMode == .premultiplied { key = CacheKeys.premultiplied(key) }
            key = CacheKeys.colorPolicy(key, decoding.colorPolicy)
            key = CacheKeys.metadataPolicy(key, decoding.metadataPolicy)
            if decoding.firstFrameOnly { key = CacheKeys.firstFrame(key) }
            if let transformerKey { key = CacheKeys.transformed(key, transformerKey: transformerKey) }
            return key
        }
    }

    /// The result identity of this request for `url`, whose original key is `originalKey`.
    func identity(url: URL, originalKey: String) -> ResultIdentity {
        ResultIdentity(
            source: ResultIdentity.Source(
                url: url, fallbackURLs: fallbackURLs, originalKey: originalKey, decoding: decodingOptions,
                flags: options.intersection(.sourceAffecting), isProvided: dataProvider != nil),
            transformerKey: transformer?.key,
            flags: options.subtracting(.scheduling),
            queryType: caching.queryType, storeType: caching.storeType,
            originalQueryType: caching.originalQueryType, originalStoreType: caching.originalStoreType,
            encodeOptions: caching.encodeOptions)
    }
}
