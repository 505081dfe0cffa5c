import Foundation
import Logging

/// The final-image stage: query the final key, fetch (shared download+decode), transform, store
/// the transformed image, deliver.
extension ImageManager {
    func runFinal(_ plan: RequestPlan, job: SharedJob<ImageResponse>) async throws {
        let request = plan.request
        let cache = request.caching.cache ?? configuration.imageCache
        let refreshing = plan.options.contains(.refreshCached)
        var cached: CachedImage?
        if !plan.options.contains(.fromLoaderOnly), request.caching.queryType != .none {
            cached = await queryCache(
                cache, key: plan.key, cacheType: request.caching.queryType, plan: plan, promote: !plan.isIntermediate)
        }
        // A stale disk hit is not answered before its origin is asked (HTTP freshness).
        var stale: (hit: CachedImage, http: HTTPCacheMetadata)?
        if let hit = cached, let http = staleHTTP(hit), !plan.options.contains(.fromCacheOnly) {
            stale = (hit, http)
            cached = nil
        }
        if let cached {
            job.send(.value(ImageResponse(
                image: cached.image, data: cached.data, cacheType: cached.cacheType, url: plan.url, isFinal: !refreshing)))
            if !refreshing { return }
        }
        // A chain of two or more steps is its prefix's result plus its last step: requests that
        // share the prefix compute it once, and a cached prefix is found in memory or on disk.
        // (A refresh revalidates the original, so it goes through the original.)
        // (A stale entry is judged against its revalidated original, so it goes through it too.)
        let intermediate = cached == nil && !refreshing && stale == nil ? plan.intermediate : nil
        let fetched: FetchedImage
        if let intermediate {
            let prefix = try await awaitDependency(
                finals, key: intermediate.plan.finalKey, shared: sharesWork(request), for: job, describing: plan.url
            ) { [self] prefixJob in
                try await runFinal(intermediate.plan, job: prefixJob)
            }
            // The prefix carries bytes only when its pixels are the original's (no step changed them).
            fetched = FetchedImage(
                image: prefix.image, data: prefix.data, cacheType: prefix.cacheType, sourceURL: prefix.sourceURL)
        } else {
            var revalidation: HTTPCacheMetadata?
            if cached != nil {
                revalidation = await storedValidators(plan)
            }
            // A stale original (the final key is the original's) is revalidated with its own
            // validators; a stale derived entry waits for its original, which the fetch stage
            // revalidates.
            let revalidatingStale = stale.map { !plan.hasDerivedKey && $0.http.hasValidators } ?? false
            if revalidatingStale { revalidation = stale?.http }
            if cached == nil, stale == nil, let poster = firstFrameInMemory(plan, cache: cache) {
                fetched = poster
            } else {
                do {
                    fetched = try await fetch(
                        plan, for: job, revalidation: revalidation, revalidating: cached != nil || revalidatingStale)
                } catch {
                    guard let stale, stale.http.allowsStaleOnError(), !Task.isCancelled,
                        (error as? WebImageError)?.code != .cancelled
                    else { throw error }
                    logger.warning("\(plan.url.absoluteString) could not be revalidated (\(error)); answering the stale copy")
                    job.send(.value(ImageResponse(image: stale.hit.image, data: stale.hit.data, cacheType: .disk, url: plan.url)))
                    return
                }
            }
            if fetched.notModified {
                if let stale {
                    job.send(.value(ImageResponse(image: stale.hit.image, data: stale.hit.data, cacheType: .disk, url: plan.url)))
                }
                return
            }
            // A stale derived entry made from the same original (equal validators) is still
            // current: it is answered, and its freshness restarts with the original's.
            if let stale, plan.hasDerivedKey, let http = fetched.http, http.hasSameValidators(as: stale.http) {
                if !fetched.isStale { await recordDerivedRevalidation(plan, cache: cache, http: http) }
                job.send(.value(ImageResponse(image: stale.hit.image, data: stale.hit.data, cacheType: .disk, url: plan.url)))
                return
            }
        }
        guard var image = fetched.image else {
            throw WebImageError(.badImageData, "no image could be made from \(plan.url.absoluteString)")
        }
        // A thumbnail or first frame is not what the original's bytes encode: it carries none.
        var data = request.decodesFullImage ? fetched.data : nil
        // The decoded original goes into memory at once, so the next request is a memory hit
        // (never a thumbnail or a first frame under the original key, nor a prefix's result).
        if intermediate == nil, fetched.cacheType != .memory, plan.originalStoreType.includesMemory,
            request.decodesFullImage
        {
            (request.caching.originalCache ?? cache).storeInMemory(image, forKey: plan.originalKey)
        }
        if plan.hasDerivedKey {
            var transformed = false
            let transformer = intermediate?.last ?? request.transformer
            if let transformer, !image.isAnimated || plan.options.contains(.transformAnimatedImage) {
                let source = image
                image = try await timed(.transform, plan, key: plan.key) {
                    try await limiter.run { try transformer.transformWrappingErrors(source) }
                }
                data = nil
                transformed = true
            }
            // Untouched pixels (a skipped transform, a full decode) keep the original bytes. A
            // first frame alone stays in memory: the disk remakes it from the original's bytes.
            let storedData = !transformed && request.decodesFullImage ? fetched.data : nil
            let firstFrameOnly = !transformed && request.decoding.thumbnailPixelSize == nil && !request.decodesFullImage
            try await storeDerived(
                image, originalData: fetched.data, storedData: storedData, plan: plan, cache: cache,
                onDisk: !firstFrameOnly, http: fetched.http)
        }
        job.send(.value(ImageResponse(
            image: image, data: data, cacheType: fetched.cacheType, url: plan.url, sourceURL: fetched.sourceURL)))
    }

    /// The first frame of the full image already in memory, for a first-frame-only request that
    /// may answer from memory: its poster, without the animation (no download, no decode).
    private func firstFrameInMemory(_ plan: RequestPlan, cache: ImageCache) -> FetchedImage? {
        guard let key = plan.fullImageKey, plan.request.caching.queryType.includesMemory,
            plan.options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .queryMemoryData]),
            let full = (key == plan.originalKey ? plan.request.caching.originalCache ?? cache : cache).memoryImage(forKey: key)
        else { return nil }
        metrics.memoryHits.increment()
        return FetchedImage(image: full.firstFrame, cacheType: .memory)
    }

    /// Stores a transformed or thumbnail image under the final key: the image in memory at once,
    /// its bytes (from the cache serializer, else encoded in the source format) on disk, with the
    /// original's HTTP headers (`http`), so that its freshness is the original's.
    private func storeDerived(
        _ image: Image, originalData: Data?, storedData: Data?, plan: RequestPlan, cache: ImageCache,
        onDisk: Bool, http: HTTPCacheMetadata?
    ) async throws {
        let storeType = plan.finalStoreType
        if storeType.includesMemory { cache.storeInMemory(image, forKey: plan.key) }
        guard onDisk, storeType.includesDisk else { return }
        let serializer = plan.request.caching.serializer
        let coders = configuration.coders
        var options = plan.request.caching.encodeOptions
        // The entry's key says which metadata the image keeps; its bytes must keep the same.
        options.metadataPolicy = plan.request.decoding.metadataPolicy
        let encodeOptions = options
        let work: @Sendable () async -> Void = { [self] in
            do {
                try await timed(.store, plan, key: plan.key) {
                    let bytes = try await limiter.run { () throws -> Data in
                        if let serialized = serializer?(image, originalData, plan.url) { return serialized }
                        if let storedData { return storedData }
                        var format = image.format
                        if format == .undefined, let originalData { format = ImageFormat.detect(in: originalData) }
                        return try coders.encode(image, as: format == .undefined ? .png : format, options: encodeOptions)
                    }
                    try await cache.store(
                        ImageCache.Item(
                            data: bytes, metadata: CacheEntryMetadata(originalURL: plan.url, http: http ?? HTTPCacheMetadata())),
                        forKey: plan.key, cacheType: .disk)
                }
            } catch {
                logger.warning("could not store \(plan.key) on disk: \(error)")
            }
        }
        if plan.options.contains(.waitStoreCache) { await work() } else { Task { await work() } }
    }

    /// Restarts the freshness of the derived entry on disk with its original's refreshed headers.
    private func recordDerivedRevalidation(_ plan: RequestPlan, cache: ImageCache, http: HTTPCacheMetadata) async {
        do {
            try await cache.recordRevalidation(forKey: plan.key, http: http)
        } catch {
            logger.warning("could not refresh the cached validators of \(plan.key): \(error)")
        }
    }

    /// The HTTP validators stored with the original entry on disk.
    private func storedValidators(_ plan: RequestPlan) async -> HTTPCacheMetadata? {
        let cache = plan.request.caching.originalCache ?? plan.request.caching.cache ?? configuration.imageCache
        let options = ImageCache.QueryOptions(decodeImage: false, promoteToMemory: false)
        guard let hit = try? await cache.query(forKey: plan.originalKey, cacheType: .disk, options: options),
            let http = hit.metadata?.http, !http.isEmpty
        else { return nil }
        return http
    }

    /// Subscribes `final` to the shared download+decode of the original and waits for it.
    private func fetch(
        _ plan: RequestPlan, for final: SharedJob<ImageResponse>, revalidation: HTTPCacheMetadata?, revalidating: Bool
    ) async throws -> FetchedImage {
        try await awaitDependency(
            fetches, key: plan.fetchKey(revalidating: revalidating), shared: sharesWork(plan.request), for: final,
            describing: plan.url
        ) { [self] job in
            try await runFetch(plan, job: job, revalidation: revalidation, revalidating: revalidating)
        }
    }
}
