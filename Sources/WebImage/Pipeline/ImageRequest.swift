public import Foundation

/// What to load and how: the typed form of SDWebImage's options bitmask and context dictionary.
///
/// Plain properties replace the context keys; ``Options`` holds the true on/off flags; ``userInfo``
/// carries the caller's own typed values.
///
/// ```swift
/// var request = ImageRequest(url: url)
/// request.transformer = ResizeTransformer(size: PixelSize(width: 200, height: 200), mode: .aspectFill)
/// request.options = [.retryFailed]
/// let response = try await manager.image(for: request)
/// ```
public struct ImageRequest: Sendable {
    /// The URL to load; `nil` when the request was made from a string that is not a URL (the
    /// load then fails with ``WebImageError/Code/invalidURL``, as SDWebImage does).
    public var url: URL?
    /// The on/off switches.
    public var options: Options = []

    /// The cache to use instead of the manager's (SDWebImage's `imageCache` context).
    public var imageCache: (any ImageCaching)?
    /// The loader to use instead of the manager's (`imageLoader`).
    public var loader: (any ImageLoading)?
    /// The coder to decode with instead of the manager's coders (`imageCoder`).
    public var coder: (any ImageCoding)?
    /// A transform applied after decoding; its key is appended to the cache key (`imageTransformer`).
    public var transformer: (any ImageTransforming)?
    /// Maps the URL to a cache key (`cacheKeyFilter`). `nil` from the filter disables caching for
    /// the request: nothing is looked up or stored, the image is loaded every time. An empty key
    /// fails the request with ``WebImageError/Code/invalidCacheKey``.
    public var cacheKeyFilter: (@Sendable (URL) -> String?)?
    /// Produces the bytes stored on disk for a transformed or thumbnail image (`cacheSerializer`);
    /// `nil` from it falls back to encoding the image in its source format.
    public var cacheSerializer: (@Sendable (Image, Data?, URL) -> Data?)?
    /// The tiers queried for the final image (`queryCacheType`, default all).
    public var queryCacheType: ImageCacheType = .all
    /// The tiers the final image is stored in (`storeCacheType`, default all).
    public var storeCacheType: ImageCacheType = .all
    /// The tiers queried for the original image when a transformer or thumbnail is set
    /// (`originalQueryCacheType`, default disk).
    public var originalQueryCacheType: ImageCacheType = .disk
    /// The tiers the original bytes are stored in when a transformer or thumbnail is set
    /// (`originalStoreCacheType`, default disk).
    public var originalStoreCacheType: ImageCacheType = .disk
    /// The cache for the original image, instead of the request's or manager's (`originalImageCache`).
    public var originalImageCache: (any ImageCaching)?
    /// Decode to at most this size; part of the cache key (`imageThumbnailPixelSize`).
    public var thumbnailPixelSize: PixelSize?
    /// Whether a thumbnail keeps the aspect ratio (`imagePreserveAspectRatio`, default true).
    public var preserveAspectRatio: Bool = true
    /// Points per pixel of the result (`imageScaleFactor`).
    public var scaleFactor: Double = 1
    /// The decoded-bytes limit for ``Options/scaleDownLargeImages`` (`imageScaleDownLimitBytes`);
    /// not part of the cache key.
    public var scaleDownLimitBytes: Int?
    /// Rewrites the outgoing HTTP request (`downloadRequestModifier`).
    public var requestModifier: ImageRequestModifier?
    /// Rewrites the response head (`downloadResponseModifier`).
    public var responseModifier: ImageResponseModifier?
    /// Transforms the downloaded bytes before decoding (`downloadDecryptor`).
    public var decryptor: ImageDataDecryptor?
    /// How transformed images are encoded for the disk cache (`imageEncodeOptions`).
    public var encodeOptions: ImageEncodingOptions = ImageEncodingOptions()
    /// The caller's own typed values.
    public var userInfo = ImageRequestUserInfo()

    /// A request for `url`.
    public init(url: URL?, options: Options = []) {
        self.url = url
        self.options = options
    }

    /// A request for the URL `string` names; a string that is not a URL makes a request that fails
    /// with ``WebImageError/Code/invalidURL``.
    public init(string: String, options: Options = []) {
        self.init(url: string.isEmpty ? nil : URL(string: string), options: options)
    }

    /// The download priority the options ask for.
    public var priority: ImageLoadPriority {
        if options.contains(.highPriority) { return .high }
        if options.contains(.lowPriority) { return .low }
        return .normal
    }

    /// The options handed to the decoder.
    public var decodingOptions: ImageDecodingOptions {
        var decoding = ImageDecodingOptions()
        decoding.firstFrameOnly = options.contains(.decodeFirstFrameOnly)
        decoding.scaleFactor = scaleFactor
        decoding.thumbnailPixelSize = thumbnailPixelSize
        decoding.preserveAspectRatio = preserveAspectRatio
        if options.contains(.scaleDownLargeImages) {
            decoding.scaleDownLimitBytes = scaleDownLimitBytes ?? ImageDecodingOptions.defaultScaleDownLimitBytes
        }
        return decoding
    }

    /// The key of the original image: the URL's absolute string through ``cacheKeyFilter``.
    public var originalCacheKey: String? {
        guard let url else { return nil }
        return CacheKeys.key(for: url, filter: cacheKeyFilter)
    }

    /// The key of the final image: the original key, then the thumbnail size, then `-FirstFrame`
    /// for ``Options/decodeFirstFrameOnly``, then the transformer's key (SDWebImage's order, with
    /// the first-frame part added).
    public var cacheKey: String? { originalCacheKey.map(finalCacheKey(from:)) }

    /// The final key derived from the original key `key`.
    func finalCacheKey(from key: String) -> String {
        var key = key
        if let thumbnailPixelSize {
            key = CacheKeys.thumbnailed(key, size: thumbnailPixelSize, preserveAspectRatio: preserveAspectRatio)
        }
        if options.contains(.decodeFirstFrameOnly) { key = CacheKeys.firstFrame(key) }
        if let transformer { key = CacheKeys.transformed(key, transformerKey: transformer.key) }
        return key
    }

    /// Whether the decode gives the whole original (no thumbnail, every frame), so the decoded
    /// image may stand for the original key in memory.
    var decodesFullImage: Bool { thumbnailPixelSize == nil && !options.contains(.decodeFirstFrameOnly) }

    /// Turns every cache query and store off (a key filter that gives nil).
    mutating func disableCaching() {
        queryCacheType = .none
        storeCacheType = .none
        originalQueryCacheType = .none
        originalStoreCacheType = .none
    }

    /// Whether any per-request object or closure is set; such requests never share a task with
    /// others, since closures cannot be compared.
    var hasCustomComponents: Bool {
        imageCache != nil || loader != nil || coder != nil || cacheSerializer != nil || originalImageCache != nil
            || requestModifier != nil || responseModifier != nil || decryptor != nil
    }
}

/// A caller's typed values carried by an ``ImageRequest``, keyed by types
/// (the typed replacement of SDWebImage's free-form context entries).
///
/// ```swift
/// enum TraceID: ImageRequestUserInfoKey { static let defaultValue = "" }
/// request.userInfo[TraceID.self] = "abc"
/// ```
public struct ImageRequestUserInfo: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// An empty set of values.
    public init() {}

    /// The value for `key`, or its default.
    public subscript<Key: ImageRequestUserInfoKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether no value is set.
    public var isEmpty: Bool { values.isEmpty }
}

/// A key of ``ImageRequestUserInfo``: a type naming a value type and its default.
public protocol ImageRequestUserInfoKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value when none is set.
    static var defaultValue: Value { get }
}
