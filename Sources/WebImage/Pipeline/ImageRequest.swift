public import Foundation

/// What to load and how: the typed form of SDWebImage's options bitmask and context dictionary.
///
/// A request is a URL (or a ``dataProvider``), the on/off ``Options``, an optional
/// ``transformer``, and three groups of settings named after the stages they steer: ``caching``
/// (which caches, keys and tiers), ``decoding`` (thumbnail size, scale, scale-down limit) and
/// ``loading`` (per-request loader and download hooks). ``userInfo`` carries the caller's own typed values. The grouped properties
/// are canonical; the flat names of earlier releases (``thumbnailPixelSize``,
/// ``queryCacheType``, ``loader``, …) forward to them and stay supported.
///
/// ```swift
/// var request = ImageRequest(url: url, options: [.retryFailed])
/// request.transformer = ResizeTransformer(size: PixelSize(width: 200, height: 200), mode: .aspectFill)
/// request.decoding.thumbnailPixelSize = PixelSize(width: 400, height: 400)
/// request.caching.storeType = .memory
/// let response = try await manager.image(for: request)
/// ```
///
/// What changes the result (and so the cache key and which requests share work) is described once,
/// by the request's result identity: the URL through the key filter, the thumbnail size and aspect,
/// first-frame-only and the transformer's key name the cached result; the other decoding settings,
/// the flags (except the priority flags) and the cache tiers keep requests from sharing a job.
public struct ImageRequest: Sendable {
    /// The URL to load; `nil` when the request was made from a string that is not a URL (the
    /// load then fails with ``WebImageError/Code/invalidURL``, as SDWebImage does).
    public var url: URL?
    /// URLs tried in order when ``url`` fails, downloading or decoding (Kingfisher's
    /// `alternativeSources`). The cache key stays ``url``'s, whichever URL answers
    /// (``ImageResponse/sourceURL`` says which); a URL the failed-URL list blocks is skipped
    /// (unless ``Options/retryFailed``); each attempt is a `download` event of its own.
    ///
    /// ```swift
    /// var request = ImageRequest(url: cdnURL)
    /// request.fallbackURLs = [originURL]
    /// ```
    public var fallbackURLs: [URL] = []
    /// Where the bytes come from when they do not come from a URL (Kingfisher's
    /// `ImageDataProvider`); when set, it is the source and ``url`` is not used. The original is
    /// cached under the provider's ``ImageDataProviding/cacheKey`` (the key filter does not apply)
    /// and the provider is called only when the caches miss. See ``init(provider:options:)``.
    public var dataProvider: (any ImageDataProviding)?
    /// The on/off switches.
    public var options: Options = []
    /// A transform applied after decoding; its key is appended to the cache key
    /// (SDWebImage's `imageTransformer`).
    public var transformer: (any ImageTransforming)?
    /// Changes the image on its way to this request's caller, after the caches (Kingfisher's
    /// `imageModifier`): applied to every response, from memory, disk or the network, never
    /// stored and never part of a key.
    public var imageModifier: ImageModifier?
    /// Which caches, keys and tiers the request uses.
    public var caching = Caching()
    /// How the bytes are decoded: thumbnail size, scale, scale-down limit and the coder.
    public var decoding = Decoding()
    /// The per-request loader and the hooks of the download.
    public var loading = Loading()
    /// The caller's own typed values; never part of any key.
    public var userInfo = ImageRequest.UserInfo()

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
    public var priority: ImageLoad.Priority {
        if options.contains(.highPriority) { return .high }
        if options.contains(.lowPriority) { return .low }
        return .normal
    }

    /// The options handed to the decoder: ``decoding`` with the ``Options/decodeFirstFrameOnly``
    /// and ``Options/scaleDownLargeImages`` flags applied (a manager first fills the limits left
    /// `nil` from its configuration).
    public var decodingOptions: ImageDecodingOptions {
        var options = ImageDecodingOptions()
        options.firstFrameOnly = self.options.contains(.decodeFirstFrameOnly)
        options.scaleFactor = decoding.scaleFactor
        options.thumbnailPixelSize = decoding.thumbnailPixelSize
        options.preserveAspectRatio = decoding.preserveAspectRatio
        options.draft = decoding.draft && decoding.thumbnailPixelSize != nil
        options.alphaMode = decoding.alphaMode
        options.colorPolicy = decoding.colorPolicy
        options.metadataPolicy = decoding.metadataPolicy
        if let limit = decoding.maxPixelCount { options.maxPixelCount = limit }
        if let limit = decoding.maxAnimationPixelCount { options.maxAnimationPixelCount = limit }
        if self.options.contains(.scaleDownLargeImages) {
            let limit = decoding.scaleDownLimitBytes
            options.scaleDownLimitBytes = limit ?? ImageDecodingOptions.defaultScaleDownLimitBytes
        }
        return options
    }

    /// The key of the original image: the URL's absolute string through the key filter
    /// (``Caching/keyFilter``), or the ``dataProvider``'s own key.
    public var originalCacheKey: String? {
        if let dataProvider { return dataProvider.cacheKey }
        guard let url else { return nil }
        return CacheKeys.key(for: url, filter: caching.keyFilter)
    }

    /// The key of the final image: the original key, then the thumbnail size, then `-FirstFrame`
    /// for ``Options/decodeFirstFrameOnly``, then the transformer's key (SDWebImage's order, with
    /// the first-frame part added).
    public var cacheKey: String? {
        guard let url = namingURL, let originalKey = originalCacheKey else { return nil }
        return identity(url: url, originalKey: originalKey).cacheKey
    }

    /// Whether the decode gives the whole original (no thumbnail, every frame), so the decoded
    /// image may stand for the original key in memory.
    var decodesFullImage: Bool { decoding.thumbnailPixelSize == nil && !options.contains(.decodeFirstFrameOnly) }

    /// Turns every cache query and store off (a key filter that gives nil).
    mutating func disableCaching() {
        caching.queryType = .none
        caching.storeType = .none
        caching.originalQueryType = .none
        caching.originalStoreType = .none
    }

    /// Whether any per-request object or closure is set; such requests never share a task with
    /// others, since closures cannot be compared.
    var hasCustomComponents: Bool {
        caching.hasCustomObjects || decoding.coder != nil || loading.hasCustomObjects
    }
}

extension ImageRequest {
    /// A caller's typed values carried by an ``ImageRequest``, keyed by types
    /// (the typed replacement of SDWebImage's free-form context entries).
    ///
    /// ```swift
    /// enum TraceID: ImageRequest.UserInfoKey { static let defaultValue = "" }
    /// request.userInfo[TraceID.self] = "abc"
    /// ```
    public struct UserInfo: Sendable {
        private var values: [ObjectIdentifier: any Sendable] = [:]

        /// An empty set of values.
        public init() {}

        /// The value for `key`, or its default.
        public subscript<Key: ImageRequest.UserInfoKey>(key: Key.Type) -> Key.Value {
            get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
            set { values[ObjectIdentifier(key)] = newValue }
        }

        /// Whether no value is set.
        public var isEmpty: Bool { values.isEmpty }
    }
}

extension ImageRequest {
    /// A key of ``ImageRequest/UserInfo``: a type naming a value type and its default.
    public protocol UserInfoKey {
        /// The type of the value.
        associatedtype Value: Sendable
        /// The value when none is set.
        static var defaultValue: Value { get }
    }
}
