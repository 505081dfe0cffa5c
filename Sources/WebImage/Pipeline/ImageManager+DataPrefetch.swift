import Foundation

/// Requests for the original bytes: the disk-only prefetch and ``ImageManager/data(for:)``. The
/// disk tier answers first; nothing is decoded and nothing goes into memory.
extension ImageManager {
    /// The original bytes of `request` (Nuke's `data(for:)`): from the disk cache when it holds
    /// them, else downloaded (or asked of the request's data provider), checked for an image
    /// signature a coder knows and stored on disk as the request's tiers say.
    ///
    /// Nothing is decoded and the memory cache is not touched. The failed-URL list,
    /// `retryFailed`, `fromCacheOnly` (``WebImageError/Code/notCached`` on a miss),
    /// `fromLoaderOnly` (the disk is not asked), the should-download hook, fallback URLs and the
    /// request's loader hooks apply as for ``image(for:)-(ImageRequest)``. Bytes without a known
    /// image signature fail with ``WebImageError/Code/badImageData``.
    ///
    /// ```swift
    /// let original = try await manager.data(for: ImageRequest(url: url))
    /// try original.data.write(to: destination)
    /// ```
    public func data(for request: ImageRequest) async throws -> ImageDataResponse {
        let (data, cacheType, url) = try await originalBytes(for: request, delivering: true, onLoad: nil)
        guard let data else { throw WebImageError(.notCached, "no bytes for \(url.absoluteString)") }
        return ImageDataResponse(data: data, cacheType: cacheType, url: url)
    }

    /// Puts the original bytes of `request`'s URL in the disk cache without decoding them or
    /// touching the memory cache (``ImagePrefetcher/Destination/diskOnly``, like Nuke's disk-only
    /// prefetch): a disk hit answers ``ImageCacheType/disk`` at once; otherwise the bytes are
    /// downloaded, checked for an image signature a coder knows, stored, and ``ImageCacheType/none``
    /// is returned. The failed-URL list, `retryFailed`, `fromCacheOnly`, `fromLoaderOnly`, the
    /// should-download hook and the request's loader hooks apply as for ``image(for:)-(ImageRequest)``.
    /// `onLoad` gets each loader task as it starts (the prefetcher changes its priority).
    func prefetchOriginalBytes(
        for request: ImageRequest, onLoad: (@Sendable (ImageLoad.Task) -> Void)? = nil
    ) async throws -> ImageCacheType {
        try await originalBytes(for: request, delivering: false, onLoad: onLoad).cacheType
    }

    /// The original bytes: the disk first, then the loader or the data provider. `delivering`
    /// reads a disk hit's bytes and keeps the request's tiers; otherwise (the disk-only prefetch)
    /// a hit is only checked for, the bytes always go to disk and none are returned for a hit.
    private func originalBytes(
        for request: ImageRequest, delivering: Bool, onLoad: (@Sendable (ImageLoad.Task) -> Void)?
    ) async throws -> (data: Data?, cacheType: ImageCacheType, url: URL) {
        guard !isInvalidated else { throw Self.invalidatedError }
        var request = prepare(request)
        metrics.requests.increment()
        guard let url = request.namingURL else { throw WebImageError(.invalidURL, "the request has no valid URL") }
        let key: String
        if let filtered = request.originalCacheKey {
            guard !filtered.isEmpty else {
                throw WebImageError(.invalidCacheKey, "the cache key filter gave an empty key for \(url.absoluteString)")
            }
            key = filtered
        } else {
            // A filter that gives nil turns caching off: nothing to put on disk, nothing to read.
            guard delivering else { return (nil, .none, url) }
            request.disableCaching()
            key = url.absoluteString
        }
        if !delivering {
            request.caching.originalStoreType = .disk
            request.caching.storeType = .disk
        }
        let plan = RequestPlan(request: request, url: url, originalKey: key)
        let cache = request.caching.originalCache ?? request.caching.cache ?? configuration.imageCache
        if !request.options.contains(.fromLoaderOnly), request.originalCacheKey != nil {
            if delivering {
                let options = ImageCache.QueryOptions(decodeImage: false, promoteToMemory: false)
                let found = try await timed(.cacheQuery, plan, key: key, hit: { $0?.data != nil }) {
                    try await cache.query(forKey: key, cacheType: .disk, options: options)
                }
                if let data = found?.data { return (data, .disk, url) }
            } else {
                let found = try await timed(.cacheQuery, plan, key: key, hit: { $0 != .none }) {
                    try await cache.contains(forKey: key, cacheType: .disk)
                }
                if found != .none { return (nil, .disk, url) }
            }
        }
        if request.options.contains(.fromCacheOnly) {
            throw WebImageError(.notCached, "\(url.absoluteString) is not cached and the request is fromCacheOnly")
        }
        let decoder = request.decoding.coder ?? configuration.coders
        let result: ImageLoad.Result
        if let provider = request.dataProvider {
            result = try await provideOriginal(plan, from: provider)
            try checkSignature(of: result, decoder: decoder)
        } else {
            let loader = request.loading.loader ?? configuration.loader
            (result, _) = try await firstAnswer(plan, loader: loader) { source, _ in
                metrics.downloads.increment()
                let result = try await timed(.download, plan, key: key, url: source) {
                    let load = loader.load(plan.loadRequest(from: source, priority: request.priority, revalidation: nil))
                    onLoad?(load)
                    return try await load.result()
                }
                try checkSignature(of: result, decoder: decoder)
                return result
            }
        }
        try await storeOriginalBytes(plan: plan, result: result, cache: cache)
        return (result.data, .none, url)
    }

    /// Throws unless a coder recognises the bytes by their signature (no decoding).
    private func checkSignature(of result: ImageLoad.Result, decoder: any ImageDecoding) throws {
        guard !decoder.canDecode(result.data) else { return }
        let format = ImageFormat.detect(in: result.data)
        let error =
            format == .undefined
            ? WebImageError.badData("\(result.response.url.absoluteString) is not image data (\(result.data.count) bytes)")
            : WebImageError(.unsupportedFormat, "no coder registered for \(format)")
        throw Self.namingContentType(error, of: result.response)
    }
}
