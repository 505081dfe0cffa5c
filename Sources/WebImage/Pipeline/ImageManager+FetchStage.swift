import Foundation
import Logging

/// The download+decode stage of the original image, shared by every request for one URL and
/// decode options: original cache query, download (with previews), decode, store the original
/// bytes as downloaded.
extension ImageManager {
    func runFetch(
        _ plan: RequestPlan, job: SharedJob<FetchedImage>, revalidation: HTTPCacheMetadata?, revalidating: Bool
    ) async throws {
        let request = plan.request
        let cache = request.caching.originalCache ?? request.caching.cache ?? configuration.imageCache
        if !revalidating, plan.originalQueryType != .none,
            let hit = await queryCache(
                cache, key: plan.originalKey, cacheType: plan.originalQueryType, plan: plan,
                promote: request.decodesFullImage)
        {
            job.send(.value(FetchedImage(image: hit.image, data: hit.data, cacheType: hit.cacheType)))
            return
        }
        if plan.options.contains(.fromCacheOnly) {
            throw WebImageError(.notCached, "\(plan.url.absoluteString) is not cached and the request is fromCacheOnly")
        }
        if let shouldDownload = configuration.shouldDownload, !shouldDownload(plan.url) {
            throw WebImageError(.downloadDisallowed, "the should-download hook refused \(plan.url.absoluteString)")
        }
        let loader = request.loading.loader ?? configuration.loader
        let result: ImageLoadResult
        do {
            result = try await download(plan, job: job, loader: loader, revalidation: revalidation)
        } catch let error as WebImageError where error.code == .cacheNotModified && revalidation != nil {
            await recordRevalidation(plan, cache: cache, notModified: error)
            job.send(.value(FetchedImage(cacheType: .disk, notModified: true)))
            return
        } catch {
            recordFailure(plan.url, error: error, loader: loader)
            throw error
        }
        let image: Image
        do {
            image = try await decode(result.data, plan: plan, key: plan.originalKey)
        } catch {
            let error = Self.namingContentType(error, of: result.response)
            recordFailure(plan.url, error: error, loader: loader)
            throw error
        }
        failedURLs.recordSuccess(plan.url)
        storeOriginal(image: image, result: result, plan: plan, cache: cache)
        if plan.options.contains(.waitStoreCache) { await pendingStore(plan: plan, result: result, cache: cache) }
        job.send(.value(FetchedImage(image: image, data: result.data, cacheType: .none)))
    }

    /// A decode failure of a response that did not say it was an image names the content type the
    /// server sent (a login page or an error page served with 200 is a common cause).
    static func namingContentType(_ error: any Error, of response: ImageLoadResponse) -> any Error {
        guard let typed = error as? WebImageError, typed.code == .badImageData || typed.code == .unsupportedFormat,
            let mime = response.mimeType, !mime.hasPrefix("image/"), mime != "application/octet-stream"
        else { return error }
        return WebImageError(typed.code, typed.message + " (the server sent \(mime))", underlying: typed.underlying)
    }

    /// Downloads, forwarding progress and (for progressive loads) decoded previews.
    private func download(
        _ plan: RequestPlan, job: SharedJob<FetchedImage>, loader: any ImageLoading, revalidation: HTTPCacheMetadata?
    ) async throws -> ImageLoadResult {
        let progressive = plan.options.contains(.progressiveLoad)
        let loadTask = loader.load(plan.loadRequest(priority: job.priority, revalidation: revalidation))
        job.onPriorityChange { loadTask.setPriority($0) }
        defer { job.onPriorityChange(nil) }
        metrics.downloads.increment()
        let start = ContinuousClock.now
        do {
            let result = try await withTaskCancellationHandler {
                for try await event in loadTask.events {
                    switch event {
                    case .response:
                        break
                    case .progress(var progress):
                        let partial = progress.partialData
                        progress.partialData = nil
                        job.send(.progress(progress))
                        if progressive, let partial, let preview = await previewImage(partial, plan: plan) {
                            job.send(.preview(preview))
                        }
                    case .finished(let result):
                        return result
                    }
                }
                throw WebImageError(.cancelled, "the load of \(plan.url.absoluteString) ended without a result")
            } onCancel: {
                loadTask.cancel()
            }
            report(.download, plan, key: plan.originalKey, since: start, succeeded: true)
            return result
        } catch {
            report(.download, plan, key: plan.originalKey, since: start, succeeded: false)
            throw error
        }
    }

    /// A partial image from the bytes so far, when the coder can make one.
    private func previewImage(_ data: Data, plan: RequestPlan) async -> Image? {
        let decoder: any ImageDecoding = plan.request.decoding.coder ?? configuration.coders
        var options = plan.decoding
        options.firstFrameOnly = true
        return try? await limiter.run { try decoder.decodeWrappingErrors(data, options: options) }
    }

    /// Decodes bytes with the request's decode options, off the caller, a bounded number at once.
    func decode(_ data: Data, plan: RequestPlan, key: String) async throws -> Image {
        let decoder: any ImageDecoding = plan.request.decoding.coder ?? configuration.coders
        let options = plan.decoding
        let preload = plan.options.contains(.preloadAllFrames)
        let start = ContinuousClock.now
        do {
            let image = try await limiter.run { () throws -> Image in
                let image = try decoder.decodeWrappingErrors(data, options: options)
                guard preload, let animation = image.animation, !(animation is InMemoryAnimation) else { return image }
                let frames = try (0..<animation.frameCount).map { index in
                    do {
                        return try animation.frame(at: index)
                    } catch {
                        throw WebImageError.wrapping(error, code: .decodingFailed, "frame \(index) of \(plan.url.absoluteString) failed to decode")
                    }
                }
                return Image(
                    pixels: image.pixels, scale: image.scale, orientation: image.orientation, format: image.format,
                    animation: InMemoryAnimation(frames: frames, loopCount: animation.loopCount),
                    hasAlpha: image.hasAlpha, originalPixelSize: image.originalPixelSize)
            }
            report(.decode, plan, key: key, since: start, succeeded: true)
            return image
        } catch {
            report(.decode, plan, key: key, since: start, succeeded: false)
            throw error
        }
    }

    /// Writes the original bytes to disk in the background unless the request waits for the
    /// store. (Each final stage puts its image in memory itself, at once.)
    private func storeOriginal(image: Image, result: ImageLoadResult, plan: RequestPlan, cache: any ImageCaching) {
        if plan.originalStoreType.includesDisk, !plan.options.contains(.waitStoreCache) {
            Task { await pendingStore(plan: plan, result: result, cache: cache) }
        }
    }

    /// Writes the original bytes as downloaded, with the response's validators, to disk; a failure
    /// is logged.
    private func pendingStore(plan: RequestPlan, result: ImageLoadResult, cache: any ImageCaching) async {
        do {
            try await storeOriginalBytes(plan: plan, result: result, cache: cache)
        } catch {
            logger.warning("could not store \(plan.originalKey) on disk: \(error)")
        }
    }

    /// Writes the original bytes as downloaded, with the response's validators, to disk (when the
    /// plan stores the original there).
    func storeOriginalBytes(plan: RequestPlan, result: ImageLoadResult, cache: any ImageCaching) async throws {
        guard plan.originalStoreType.includesDisk else { return }
        let response = result.response
        let metadata = CacheEntryMetadata(
            originalURL: response.url, contentType: response.contentType, http: response.cacheMetadata)
        let start = ContinuousClock.now
        do {
            try await cache.store(CacheItem(data: result.data, metadata: metadata), forKey: plan.originalKey, cacheType: .disk)
            report(.store, plan, key: plan.originalKey, since: start, succeeded: true)
        } catch {
            report(.store, plan, key: plan.originalKey, since: start, succeeded: false)
            throw error
        }
    }

    /// A 304 keeps the stored bytes: their validators and dates are refreshed from its headers.
    private func recordRevalidation(_ plan: RequestPlan, cache: any ImageCaching, notModified: WebImageError) async {
        guard let cache = cache as? any CacheRevalidationRecording, let response = notModified.downloadDetails?.response
        else { return }
        do {
            try await cache.recordRevalidation(forKey: plan.originalKey, http: response.cacheMetadata)
        } catch {
            logger.warning("could not refresh the cached validators of \(plan.originalKey): \(error)")
        }
    }

    /// Blocks `url` when the hook (or else the loader's rule) says the failure is permanent.
    func recordFailure(_ url: URL, error: any Error, loader: any ImageLoading) {
        if error is CancellationError || (error as? WebImageError)?.code == .cancelled { return }
        metrics.failures.increment()
        logger.warning("loading \(url.absoluteString) failed: \(error)")
        let block = configuration.shouldBlockFailedURL?(url, error) ?? loader.shouldBlockFailedURL(url, error: error)
        guard block else { return }
        let typed = error as? WebImageError ?? WebImageError(.badImageData, "\(error)", underlying: nil)
        failedURLs.recordFailure(url, error: typed)
    }

    /// Looks `key` up: memory synchronously, then the cache's other tiers; disk bytes are decoded
    /// with the request's options and (when `promote`) put in memory. Cache errors count as misses.
    func queryCache(
        _ cache: any ImageCaching, key: String, cacheType: ImageCacheType, plan: RequestPlan, promote: Bool
    ) async -> CachedImage? {
        let wantsData = plan.options.contains(.queryMemoryData)
        if cacheType.includesMemory, !wantsData, let image = cache.memoryImage(forKey: key) {
            metrics.memoryHits.increment()
            return CachedImage(image: image, cacheType: .memory)
        }
        let start = ContinuousClock.now
        let options = CacheQueryOptions(
            decodeImage: false, decodingOptions: plan.decoding, includeData: wantsData, promoteToMemory: false)
        let found: CacheQueryResult?
        do {
            found = try await cache.query(forKey: key, cacheType: cacheType, options: options)
        } catch {
            report(.cacheQuery, plan, key: key, since: start, succeeded: false)
            logger.warning("cache query for \(key) failed: \(error)")
            return nil
        }
        report(.cacheQuery, plan, key: key, since: start, succeeded: true, hit: found != nil)
        guard let found else { return nil }
        if let image = found.image { return CachedImage(image: image, data: found.data, cacheType: found.cacheType) }
        guard let data = found.data, let image = try? await decode(data, plan: plan, key: key) else { return nil }
        metrics.diskHits.increment()
        if promote { cache.storeInMemory(image, forKey: key) }
        return CachedImage(image: image, data: data, cacheType: .disk)
    }

    /// Reports a stage: an event for subscribers, a timer sample, a trace log line.
    func report(
        _ stage: ImagePipelineEvent.Stage, _ plan: RequestPlan, key: String, since start: ContinuousClock.Instant,
        succeeded: Bool, hit: Bool = false
    ) {
        let duration = ContinuousClock.now - start
        let (seconds, attoseconds) = duration.components
        metrics.stageTimers[stage]?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if broadcaster.hasSubscribers {
            broadcaster.send(
                ImagePipelineEvent(
                    stage: stage, url: plan.url, key: key, duration: duration, succeeded: succeeded, hit: hit))
        }
        logger.trace("\(stage.rawValue) \(key) \(succeeded ? "ok" : "failed") in \(duration)")
    }
}
