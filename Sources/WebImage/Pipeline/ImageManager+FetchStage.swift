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
        // A stale original on disk is asked about with its validators: a 304 answers with it.
        var revalidation = revalidation
        var stale: CachedImage?
        if !revalidating, plan.originalQueryType != .none,
            let hit = await queryCache(
                cache, key: plan.originalKey, cacheType: plan.originalQueryType, plan: plan,
                promote: request.decodesFullImage)
        {
            if let http = staleHTTP(hit), !plan.options.contains(.fromCacheOnly) {
                stale = hit
                revalidation = http.hasValidators ? http : nil
            } else {
                job.send(.value(FetchedImage(image: hit.image, data: hit.data, cacheType: hit.cacheType, http: hit.metadata?.http)))
                return
            }
        }
        if plan.options.contains(.fromCacheOnly) {
            throw WebImageError(.notCached, "\(plan.url.absoluteString) is not cached and the request is fromCacheOnly")
        }
        if let provider = request.dataProvider {
            let result = try await provideOriginal(plan, from: provider)
            let image = try await decode(result.data, plan: plan, key: plan.originalKey)
            storeOriginal(image: image, result: result, plan: plan, cache: cache)
            if plan.options.contains(.waitStoreCache) { await pendingStore(plan: plan, result: result, image: image, cache: cache) }
            job.send(.value(FetchedImage(image: image, data: result.data, cacheType: .none, sourceURL: plan.url)))
            return
        }
        let loader = request.loading.loader ?? configuration.loader
        // The request's URL, then each fallback: downloaded and decoded until one gives an image.
        let answer: (image: Image?, result: ImageLoad.Result?, notModified: HTTPCacheMetadata?)
        let source: URL
        do {
            (answer, source) = try await firstAnswer(plan, loader: loader) { source, index in
                // Only the request's own URL is asked whether the stored bytes are still current.
                let revalidation = index == 0 ? revalidation : nil
                let result: ImageLoad.Result
                do {
                    result = try await download(plan, from: source, job: job, loader: loader, revalidation: revalidation)
                } catch let error as WebImageError where error.code == .cacheNotModified && revalidation != nil {
                    let notModified = await recordRevalidation(plan, cache: cache, notModified: error)
                    return (image: Image?.none, result: ImageLoad.Result?.none, notModified: notModified)
                }
                do {
                    return (
                        image: try await decode(result.data, plan: plan, key: plan.originalKey), result: result,
                        notModified: HTTPCacheMetadata?.none)
                } catch {
                    throw Self.namingContentType(error, of: result.response)
                }
            }
        } catch {
            // Stale-if-error: the stale original answers a failed revalidation unless its headers
            // forbid it (must-revalidate, no-cache); cancellation is never answered.
            guard let stale, let http = stale.metadata?.http, http.allowsStaleOnError(), !Task.isCancelled,
                (error as? WebImageError)?.code != .cancelled, !(error is CancellationError)
            else { throw error }
            logger.warning("\(plan.url.absoluteString) could not be revalidated (\(error)); answering the stale copy")
            job.send(.value(FetchedImage(image: stale.image, data: stale.data, cacheType: .disk, http: http, isStale: true)))
            return
        }
        guard let image = answer.image, let result = answer.result else {
            if let stale {
                let http = (stale.metadata?.http ?? HTTPCacheMetadata()).updated(with: answer.notModified ?? HTTPCacheMetadata())
                job.send(.value(FetchedImage(image: stale.image, data: stale.data, cacheType: .disk, http: http)))
            } else {
                job.send(.value(FetchedImage(cacheType: .disk, notModified: true, http: answer.notModified)))
            }
            return
        }
        storeOriginal(image: image, result: result, plan: plan, cache: cache)
        if plan.options.contains(.waitStoreCache) { await pendingStore(plan: plan, result: result, image: image, cache: cache) }
        job.send(.value(FetchedImage(
            image: image, data: result.data, cacheType: .none, sourceURL: source, http: result.response.cacheMetadata)))
    }

    /// Downloads `source`, forwarding progress and (for progressive loads) previews from one
    /// incremental decoder fed as the bytes arrive.
    private func download(
        _ plan: RequestPlan, from source: URL, job: SharedJob<FetchedImage>, loader: any ImageLoading,
        revalidation: HTTPCacheMetadata?
    ) async throws -> ImageLoad.Result {
        let loadTask = loader.load(plan.loadRequest(from: source, priority: job.priority, revalidation: revalidation))
        job.onPriorityChange { loadTask.setPriority($0) }
        defer { job.onPriorityChange(nil) }
        metrics.downloads.increment()
        return try await timed(.download, plan, key: plan.originalKey, url: source) {
            let previewer = makePreviewer(plan)
            return try await withTaskCancellationHandler {
                for try await event in loadTask.events {
                    switch event {
                    case .response:
                        break
                    case .retrying(let retry):
                        recordRetry(retry, plan, source: source)
                    case .progress(var progress):
                        let partial = progress.partialData
                        progress.partialData = nil
                        let arrival = previewer?.now()
                        job.send(.progress(progress))
                        if let previewer, let partial, let arrival,
                            let image = try? await limiter.run({ previewer.preview(for: partial, arrivedAt: arrival) })
                        {
                            job.send(.preview(ImageTask.Preview(image: image, progress: progress)))
                        }
                    case .finished(let result):
                        return result
                    }
                }
                throw WebImageError(.cancelled, "the load of \(source.absoluteString) ended without a result")
            } onCancel: {
                loadTask.cancel()
            }
        }
    }

    /// The download's previewer, for progressive loads whose decoder can decode incrementally
    /// (``ImageProgressiveDecoding``; the standard coders all can).
    private func makePreviewer(_ plan: RequestPlan) -> ProgressivePreviewer? {
        guard plan.options.contains(.progressiveLoad) else { return nil }
        let decoder: any ImageDecoding = plan.request.decoding.coder ?? configuration.coders
        guard let progressive = decoder as? any ImageProgressiveDecoding else { return nil }
        return ProgressivePreviewer(
            decoder: progressive.makeIncrementalDecoder(options: plan.decoding),
            interval: configuration.progressiveInterval, clock: configuration.progressiveClock)
    }

    /// Writes the original bytes to disk in the background unless the request waits for the
    /// store. (Each final stage puts its image in memory itself, at once.)
    private func storeOriginal(image: Image, result: ImageLoad.Result, plan: RequestPlan, cache: ImageCache) {
        if plan.originalStoreType.includesDisk, !plan.options.contains(.waitStoreCache) {
            Task { await pendingStore(plan: plan, result: result, image: image, cache: cache) }
        }
    }

    /// Writes the original bytes (as downloaded, or through the cache serializer), with the
    /// response's validators, to disk; a failure is logged.
    private func pendingStore(plan: RequestPlan, result: ImageLoad.Result, image: Image, cache: ImageCache) async {
        do {
            try await storeOriginalBytes(plan: plan, result: result, image: image, cache: cache)
        } catch {
            logger.warning("could not store \(plan.originalKey) on disk: \(error)")
        }
    }

    /// A 304 keeps the stored bytes: their validators and dates are refreshed from its headers,
    /// which are returned.
    private func recordRevalidation(_ plan: RequestPlan, cache: ImageCache, notModified: WebImageError) async -> HTTPCacheMetadata? {
        guard let response = notModified.downloadDetails?.response else { return nil }
        do {
            try await cache.recordRevalidation(forKey: plan.originalKey, http: response.cacheMetadata)
        } catch {
            logger.warning("could not refresh the cached validators of \(plan.originalKey): \(error)")
        }
        return response.cacheMetadata
    }
}
