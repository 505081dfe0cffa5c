public import Foundation

/// The flat property names of earlier releases, kept for source compatibility. Each forwards to
/// its grouped property, which is canonical (and documented there): ``ImageRequest/caching``,
/// ``ImageRequest/decoding`` and ``ImageRequest/loading``. New code should use the grouped names.
///
/// ```swift
/// request.thumbnailPixelSize = size      // the same as request.decoding.thumbnailPixelSize = size
/// ```
extension ImageRequest {
    // MARK: Caching

    /// Shorthand for `caching.cache` (``Caching/cache``, canonical).
    public var imageCache: ImageCache? {
        get { caching.cache }
        set { caching.cache = newValue }
    }

    /// Shorthand for `caching.originalCache` (``Caching/originalCache``, canonical).
    public var originalImageCache: ImageCache? {
        get { caching.originalCache }
        set { caching.originalCache = newValue }
    }

    /// Shorthand for `caching.keyFilter` (``Caching/keyFilter``, canonical).
    public var cacheKeyFilter: (@Sendable (URL) -> String?)? {
        get { caching.keyFilter }
        set { caching.keyFilter = newValue }
    }

    /// Shorthand for `caching.serializer` (``Caching/serializer``, canonical).
    public var cacheSerializer: (@Sendable (Image, Data?, URL) -> Data?)? {
        get { caching.serializer }
        set { caching.serializer = newValue }
    }

    /// Shorthand for `caching.queryType` (``Caching/queryType``, canonical).
    public var queryCacheType: ImageCacheType {
        get { caching.queryType }
        set { caching.queryType = newValue }
    }

    /// Shorthand for `caching.storeType` (``Caching/storeType``, canonical).
    public var storeCacheType: ImageCacheType {
        get { caching.storeType }
        set { caching.storeType = newValue }
    }

    /// Shorthand for `caching.originalQueryType` (``Caching/originalQueryType``, canonical).
    public var originalQueryCacheType: ImageCacheType {
        get { caching.originalQueryType }
        set { caching.originalQueryType = newValue }
    }

    /// Shorthand for `caching.originalStoreType` (``Caching/originalStoreType``, canonical).
    public var originalStoreCacheType: ImageCacheType {
        get { caching.originalStoreType }
        set { caching.originalStoreType = newValue }
    }

    /// Shorthand for `caching.encodeOptions` (``Caching/encodeOptions``, canonical).
    public var encodeOptions: ImageEncodingOptions {
        get { caching.encodeOptions }
        set { caching.encodeOptions = newValue }
    }

    // MARK: Decoding

    /// Shorthand for `decoding.thumbnailPixelSize` (``Decoding/thumbnailPixelSize``, canonical).
    public var thumbnailPixelSize: PixelSize? {
        get { decoding.thumbnailPixelSize }
        set { decoding.thumbnailPixelSize = newValue }
    }

    /// Shorthand for `decoding.preserveAspectRatio` (``Decoding/preserveAspectRatio``, canonical).
    public var preserveAspectRatio: Bool {
        get { decoding.preserveAspectRatio }
        set { decoding.preserveAspectRatio = newValue }
    }

    /// Shorthand for `decoding.scaleFactor` (``Decoding/scaleFactor``, canonical).
    public var scaleFactor: Double {
        get { decoding.scaleFactor }
        set { decoding.scaleFactor = newValue }
    }

    /// Shorthand for `decoding.scaleDownLimitBytes` (``Decoding/scaleDownLimitBytes``, canonical).
    public var scaleDownLimitBytes: Int? {
        get { decoding.scaleDownLimitBytes }
        set { decoding.scaleDownLimitBytes = newValue }
    }

    /// Shorthand for `decoding.coder` (``Decoding/coder``, canonical).
    public var coder: (any ImageCoding)? {
        get { decoding.coder }
        set { decoding.coder = newValue }
    }

    // MARK: Loading

    /// Shorthand for `loading.loader` (``Loading/loader``, canonical).
    public var loader: (any ImageLoading)? {
        get { loading.loader }
        set { loading.loader = newValue }
    }

    /// Shorthand for `loading.requestModifier` (``Loading/requestModifier``, canonical).
    public var requestModifier: ImageRequestModifier? {
        get { loading.requestModifier }
        set { loading.requestModifier = newValue }
    }

    /// Shorthand for `loading.responseModifier` (``Loading/responseModifier``, canonical).
    public var responseModifier: ImageResponseModifier? {
        get { loading.responseModifier }
        set { loading.responseModifier = newValue }
    }

    /// Shorthand for `loading.decryptor` (``Loading/decryptor``, canonical).
    public var decryptor: ImageDataDecryptor? {
        get { loading.decryptor }
        set { loading.decryptor = newValue }
    }

}
