import Foundation

/// The disk-only prefetch: the original bytes onto disk, never decoded, never in memory.
extension ImageManager {
    /// Puts the original bytes of `request`'s URL in the disk cache without decoding them or
    /// touching the memory cache (``ImagePrefetcher/Destination/diskOnly``, like Nuke's disk-only
    /// prefetch): a disk hit answers ``ImageCacheType/disk`` at once; otherwise the bytes are
    /// downloaded, checked for an image signature a coder knows, stored, and ``ImageCacheType/none``
    /// is returned. The failed-URL list, `retryFailed`, `fromCacheOnly`, `fromLoaderOnly`, the
    /// should-download hook and the request's loader hooks apply as for ``image(for:)-(ImageRequest)``.
    func prefetchOriginalBytes(for request: ImageRequest) async throws -> ImageCacheType {
        guard !isInvalidated else { throw Self.invalidatedError }
        let request = prepare(request)
        metrics.requests.increment()
        guard let url = request.url else { throw WebImageError(.invalidURL, "the request has no valid URL") }
        // A filter that gives nil turns caching off: nothing to put on disk.
        guard let key = request.originalCacheKey else { return .none }
        guard !key.isEmpty else {
            throw WebImageError(.invalidCacheKey, "the cache key filter gave an empty key for \(url.absoluteString)")
        }
        var diskRequest = request
        diskRequest.caching.originalStoreType = .disk
        diskRequest.caching.storeType = .disk
        let plan = RequestPlan(request: diskRequest, url: url, originalKey: key)
        let cache = request.caching.originalCache ?? request.caching.cache ?? configuration.imageCache
        if !request.options.contains(.fromLoaderOnly) {
            let found = try await timed(.cacheQuery, plan, key: key, hit: { $0 != .none }) {
                try await cache.contains(forKey: key, cacheType: .disk)
            }
            if found != .none { return .disk }
        }
        if request.options.contains(.fromCacheOnly) {
            throw WebImageError(.notCached, "\(url.absoluteString) is not cached and the request is fromCacheOnly")
        }
        let loader = request.loading.loader ?? configuration.loader
        let decoder = request.decoding.coder ?? configuration.coders
        let (result, _) = try await firstAnswer(plan, loader: loader) { source, _ in
            metrics.downloads.increment()
            let result = try await timed(.download, plan, key: key, url: source) {
                try await loader.load(plan.loadRequest(from: source, priority: request.priority, revalidation: nil)).result()
            }
            try checkSignature(of: result, decoder: decoder)
            return result
        }
        try await storeOriginalBytes(plan: plan, result: result, cache: cache)
        return .none
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
