import Foundation

/// Everything the stages need to know about one request, worked out once.
struct RequestPlan: Sendable {
    let request: ImageRequest
    /// What the result depends on; every key below is computed from it.
    let identity: ImageRequest.ResultIdentity
    /// The final key (thumbnail, first-frame and transformer suffixes included).
    let key: String
    /// Whether this plan makes a transformer chain's prefix for a longer chain
    /// (``intermediate``): its disk hits are not promoted to memory.
    var isIntermediate = false

    /// The plan of `request` for `url`, whose original key is `originalKey`.
    init(request: ImageRequest, url: URL, originalKey: String) {
        self.request = request
        identity = request.identity(url: url, originalKey: originalKey)
        key = identity.cacheKey
    }

    var url: URL { identity.source.url }
    /// The URL, then the fallback URLs, in the order they are tried.
    var sources: [URL] { [identity.source.url] + identity.source.fallbackURLs }
    /// The original image's key.
    var originalKey: String { identity.source.originalKey }
    var decoding: ImageDecodingOptions { identity.source.decoding }
    var options: ImageRequest.Options { request.options }
    /// Whether the final image differs from the original (a transformer or a thumbnail).
    var hasDerivedKey: Bool { key != originalKey }

    /// The coalescing key of the final image stage: the whole result identity.
    var finalKey: FinalJobKey { identity }

    /// The tiers the download+decode stage queries for the original: none when the final key is
    /// the original key (the final stage already asked) or when the cache is skipped; never memory
    /// for a thumbnail or first-frame decode, which must be made from the original's bytes.
    var originalQueryType: ImageCacheType {
        guard hasDerivedKey, !options.contains(.fromLoaderOnly) else { return .none }
        let type = request.caching.originalQueryType
        return request.decodesFullImage ? type : type.intersection(.disk)
    }

    /// For a first-frame-only request (no thumbnail): the key the full decode with the same
    /// options has in memory, whose animation's first frame answers it without a download or a
    /// decode (SDWebImage's `decodeFirstFrameOnly` on an animated image in memory). Nil otherwise.
    var fullImageKey: String? {
        let decoding = identity.source.decoding
        guard decoding.firstFrameOnly, decoding.thumbnailPixelSize == nil else { return nil }
        var full = identity
        full.source.decoding.firstFrameOnly = false
        full.transformerKey = nil
        return full.cacheKey
    }

    /// The tiers the download+decode stage stores the original in.
    var originalStoreType: ImageCacheType {
        let type = hasDerivedKey ? request.caching.originalStoreType : request.caching.storeType
        return storesOnDisk ? type : type.intersection(.memory)
    }

    /// The tiers the final (transformed or thumbnail) image is stored in.
    var finalStoreType: ImageCacheType {
        storesOnDisk ? request.caching.storeType : request.caching.storeType.intersection(.memory)
    }

    /// Whether anything of this request goes to disk: not for `file://` and `data:` URLs (their
    /// bytes are on this machine already) unless the request asks with `storeLocalFilesOnDisk`.
    var storesOnDisk: Bool {
        options.contains(.storeLocalFilesOnDisk) || !(url.isFileURL || url.scheme?.lowercased() == "data")
    }

    /// The loader request for the original, with the request's hooks and flags.
    func loadRequest(from source: URL, priority: ImageLoad.Priority, revalidation: HTTPCacheMetadata?) -> ImageLoad.Request {
        var load = ImageLoad.Request(url: source, priority: priority)
        load.requestModifier = request.loading.requestModifier
        load.responseModifier = request.loading.responseModifier
        load.decryptor = request.loading.decryptor
        load.retryStrategy = request.loading.retryStrategy
        load.revalidation = revalidation
        load.allowsInvalidCertificates = options.contains(.allowInvalidSSLCertificates)
        load.handlesCookies = options.contains(.handleCookies)
        load.reportsPartialData = options.contains(.progressiveLoad)
        return load
    }

    /// The coalescing key of the download+decode stage: the identity's source, and where the
    /// original goes.
    func fetchKey(revalidating: Bool) -> FetchJobKey {
        FetchJobKey(
            source: identity.source, storesOriginalOnDisk: originalStoreType.includesDisk, revalidating: revalidating)
    }
}

/// Requests with equal final keys share one final-image task: equal result identities (the URL,
/// the keys, the decode options, the flags but the priority ones, the tiers, the disk encoding).
typealias FinalJobKey = ImageRequest.ResultIdentity

/// Requests with equal fetch keys share one download+decode: the identity's source (the URL, the
/// original key, the decode options and the few flags that change the download) and where the
/// original is stored. Requests that differ only in their transformer have equal fetch keys. The
/// first request's original-cache query applies to all: a request without a transformer queried
/// the original key already, in its final stage.
struct FetchJobKey: Hashable, Sendable {
    let source: ImageRequest.ResultIdentity.Source
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
    /// The URL that was downloaded (the request's or a fallback), nil for a cache hit.
    var sourceURL: URL?
    /// The original's HTTP validators and freshness: from its disk entry (refreshed by a 304) or
    /// from the response; nil for a memory hit. A derived entry stored with the same validators
    /// is still current.
    var http: HTTPCacheMetadata?
    /// The original is a stale copy answering a failed revalidation (stale-if-error).
    var isStale = false
}
