import Foundation

/// Everything the stages need to know about one request, worked out once.
struct RequestPlan: Sendable {
    let request: ImageRequest
    let url: URL
    /// The final key (thumbnail and transformer suffixes included).
    let key: String
    /// The original image's key.
    let originalKey: String
    let decoding: ImageDecodingOptions

    init(request: ImageRequest, url: URL, key: String, originalKey: String) {
        self.request = request
        self.url = url
        self.key = key
        self.originalKey = originalKey
        self.decoding = request.decodingOptions
    }

    var options: ImageRequest.Options { request.options }
    /// Whether the final image differs from the original (a transformer or a thumbnail).
    var hasDerivedKey: Bool { key != originalKey }

    /// The coalescing key of the final image stage.
    var finalKey: FinalJobKey {
        FinalJobKey(
            url: url, key: key, decoding: decoding, options: options.intersection(.behavioural).rawValue,
            queryCacheType: request.queryCacheType, storeCacheType: request.storeCacheType,
            originalQueryCacheType: request.originalQueryCacheType,
            originalStoreCacheType: request.originalStoreCacheType, encoding: request.encodeOptions)
    }

    /// The tiers the download+decode stage queries for the original: none when the final key is
    /// the original key (the final stage already asked) or when the cache is skipped; never memory
    /// for a thumbnail or first-frame decode, which must be made from the original's bytes.
    var originalQueryType: ImageCacheType {
        guard hasDerivedKey, !options.contains(.fromLoaderOnly) else { return .none }
        let type = request.originalQueryCacheType
        return request.decodesFullImage ? type : type.intersection(.disk)
    }

    /// The tiers the download+decode stage stores the original in.
    var originalStoreType: ImageCacheType {
        let type = hasDerivedKey ? request.originalStoreCacheType : request.storeCacheType
        return storesOnDisk ? type : type.intersection(.memory)
    }

    /// The tiers the final (transformed or thumbnail) image is stored in.
    var finalStoreType: ImageCacheType {
        storesOnDisk ? request.storeCacheType : request.storeCacheType.intersection(.memory)
    }

    /// Whether anything of this request goes to disk: not for `file://` and `data:` URLs (their
    /// bytes are on this machine already) unless the request asks with `storeLocalFilesOnDisk`.
    var storesOnDisk: Bool {
        options.contains(.storeLocalFilesOnDisk) || !(url.isFileURL || url.scheme?.lowercased() == "data")
    }

    /// The loader request for the original, with the request's hooks and flags.
    func loadRequest(priority: ImageLoadPriority, revalidation: HTTPCacheMetadata?) -> ImageLoadRequest {
        var load = ImageLoadRequest(url: url, priority: priority)
        load.requestModifier = request.requestModifier
        load.responseModifier = request.responseModifier
        load.decryptor = request.decryptor
        load.revalidation = revalidation
        load.allowsInvalidCertificates = options.contains(.allowInvalidSSLCertificates)
        load.handlesCookies = options.contains(.handleCookies)
        load.reportsPartialData = options.contains(.progressiveLoad)
        return load
    }

    func fetchKey(revalidating: Bool) -> FetchJobKey {
        FetchJobKey(
            url: url, originalKey: originalKey, decoding: decoding,
            options: options.intersection([.fromCacheOnly, .progressiveLoad, .preloadAllFrames, .handleCookies,
                .allowInvalidSSLCertificates, .waitStoreCache, .retryFailed]).rawValue,
            storesOriginalOnDisk: originalStoreType.includesDisk, revalidating: revalidating)
    }
}

/// Requests with equal final keys share one final-image task.
struct FinalJobKey: Hashable, Sendable {
    let url: URL
    let key: String
    let decoding: ImageDecodingOptions
    let options: UInt32
    let queryCacheType: ImageCacheType
    let storeCacheType: ImageCacheType
    let originalQueryCacheType: ImageCacheType
    let originalStoreCacheType: ImageCacheType
    let encoding: ImageEncodingOptions
}

/// Requests with equal fetch keys share one download+decode: the URL and the decode options
/// (and the few flags that change the download). Requests that differ only in their transformer
/// have equal fetch keys. The first request's original-cache query applies to all: a request
/// without a transformer queried the original key already, in its final stage.
struct FetchJobKey: Hashable, Sendable {
    let url: URL
    let originalKey: String
    let decoding: ImageDecodingOptions
    let options: UInt32
    let storesOriginalOnDisk: Bool
    let revalidating: Bool
}

/// What the download+decode stage produced.
struct FetchedImage: Sendable {
    var image: Image?
    var data: Data?
    var cacheType: ImageCacheType
    /// The server answered 304 to a revalidation: nothing new.
    var notModified = false
}
