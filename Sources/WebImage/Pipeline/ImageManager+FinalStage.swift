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
            cached = await queryCache(cache, key: plan.key, cacheType: request.caching.queryType, plan: plan, promote: true)
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
        var revalidation: HTTPCacheMetadata?
        if cached != nil {
            revalidation = await storedValidators(plan)
        }
        // A stale original (the final key is the original's) is revalidated with its own
        // validators; a stale derived entry waits for its original, which the fetch stage revalidates.
        let revalidatingStale = stale.map { !plan.hasDerivedKey && $0.http.hasValidators } ?? false
        if revalidatingStale { revalidation = stale?.http }
        let fetched: FetchedImage
        do {
            fetched = try await fetch(plan, for: job, revalidation: revalidation, revalidating: cached != nil || revalidatingStale)
        } catch {
            guard let stale, stale.http.allowsStaleOnError(), !Task.isCancelled, (error as? WebImageError)?.code != .cancelled
            else { throw error }
            logger.warning("\(plan.url.absoluteString) could not be revalidated (\(error)); answering the stale copy")
            job.send(.value(ImageResponse(image: stale.hit.image, data: stale.hit.data, cacheType: .disk, url: plan.url)))
            return
        }
        if fetched.notModified {
            if let stale {
                job.send(.value(ImageResponse(image: stale.hit.image, data: stale.hit.data, cacheType: .disk, url: plan.url)))
            }
            return
        }
        // A stale derived entry made from the same original (equal validators) is still current:
        // it is answered, and its freshness restarts with the original's.
        if let stale, plan.hasDerivedKey, let http = fetched.http, http.hasSameValidators(as: stale.http) {
            if !fetched.isStale { await recordDerivedRevalidation(plan, cache: cache, http: http) }
            job.send(.value(ImageResponse(image: stale.hit.image, data: stale.hit.data, cacheType: .disk, url: plan.url)))
            return
        }
        guard var image = fetched.image else {
            throw WebImageError(.badImageData, "no image could be made from \(plan.url.absoluteString)")
        }
        // A thumbnail or first frame is not what the original's bytes encode: it carries none.
        var data = request.decodesFullImage ? fetched.data : nil
        // The decoded original goes into memory at once, so the next request is a memory hit
        // (never a thumbnail or a first frame under the original key).
        if fetched.cacheType != .memory, plan.originalStoreType.includesMemory, request.decodesFullImage {
            (request.caching.originalCache ?? cache).storeInMemory(image, forKey: plan.originalKey)
        }
        if plan.hasDerivedKey {
            var transformed = false
            if let transformer = request.transformer, !image.isAnimated || plan.options.contains(.transformAnimatedImage) {
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
        let (stream, continuation) = AsyncThrowingStream<FetchedImage, any Error>.makeStream()
        let sink: SharedJob<FetchedImage>.Sink = { event in
            switch event {
            case .progress(let progress): final.send(.progress(progress))
            case .preview(let preview): final.send(.preview(preview))
            case .value(let fetched): continuation.yield(fetched)
            case .finished(let error):
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            }
        }
        let body: @Sendable (SharedJob<FetchedImage>) async throws -> Void = { [self] job in
            try await runFetch(plan, job: job, revalidation: revalidation, revalidating: revalidating)
        }
        let (job, id): (SharedJob<FetchedImage>, Int)
        if plan.request.hasCustomComponents {
            (job, id) = fetches.solo(priority: final.priority, sink: sink, body: body)
        } else {
            (job, id) = fetches.join(plan.fetchKey(revalidating: revalidating), priority: final.priority, sink: sink, body: body)
        }
        if final.priority > job.priority { job.setPriority(final.priority) }
        final.onPriorityChange { job.setPriority($0) }
        defer { final.onPriorityChange(nil) }
        return try await withTaskCancellationHandler {
            for try await fetched in stream { return fetched }
            throw WebImageError(.cancelled, "the download of \(plan.url.absoluteString) ended without an image")
        } onCancel: {
            job.unsubscribe(id)
        }
    }
}
