public import Foundation
import Logging
import Synchronization

/// One call from a URL to an image: cache query, download, decode, transform, store
/// (SDWebImage's `SDWebImageManager`).
///
/// A memory hit is answered synchronously inside ``image(for:)-(ImageRequest)``: no task, no actor hop.
/// Everything else runs in shared stages: requests for the same final image share one task, and
/// requests that differ only in their transformer share the download and decode of the original.
///
/// ```swift
/// let manager = ImageManager(configuration: .init(imageCache: cache, loader: loaders, coders: coders))
/// let response = try await manager.image(for: ImageRequest(url: url))
/// print(response.image.pixelSize, response.cacheType)
/// ```
public final class ImageManager: Sendable {
    /// What the manager is made of.
    public let configuration: ImageManager.Configuration
    /// The URLs that failed permanently and are not tried again (unless `retryFailed`).
    public let failedURLs: any FailedURLRecording

    let finals = JobRegistry<FinalJobKey, ImageResponse>()
    let fetches = JobRegistry<FetchJobKey, FetchedImage>()
    let limiter: WorkLimiter
    let broadcaster = EventBroadcaster<ImageManager.Event>()
    let metrics: ManagerMetrics
    let logger: Logger
    /// Set once by ``invalidate()``.
    let invalidation = Atomic<Bool>(false)

    /// A manager made from `configuration`.
    public init(configuration: ImageManager.Configuration) {
        self.configuration = configuration
        // The hook or the loader's FailedURLBlockingPolicy decides what blocks; the store keeps the time to live.
        failedURLs = configuration.failedURLs
            ?? FailedURLCache(clock: ContinuousClock(), timeToLive: configuration.failedURLTimeToLive)
        limiter = WorkLimiter(limit: configuration.maximumConcurrentDecodes)
        metrics = ManagerMetrics(prefix: configuration.metricsPrefix, factory: configuration.metricsFactory)
        logger = configuration.logger
    }

    /// The image for `request`: from memory at once when it is there, else through the stages.
    /// Cancelling the calling task cancels the request.
    ///
    /// For `refreshCached`, this returns the last response (the revalidated image, or the cached
    /// one when the server answered 304); use ``task(for:)`` to get both.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`): a memory hit from the main
    /// actor costs no hop; the stages run in their own tasks and the caller only waits.
    nonisolated(nonsending)
    public func image(for request: ImageRequest) async throws -> ImageResponse {
        guard !isInvalidated else { throw Self.invalidatedError }
        let request = prepare(request)
        if let hit = memoryHit(request) { return request.delivering(hit) }
        return try await start(request).response
    }

    /// The image at `url`.
    nonisolated(nonsending)
    public func image(for url: URL) async throws -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// The image for `request` if the memory cache holds it, synchronously (nil otherwise, or when
    /// the request's options rule memory out: `refreshCached`, `fromLoaderOnly`, `queryMemoryData`).
    ///
    /// ```swift
    /// if let hit = manager.cachedImage(for: request) { show(hit.image) } else { … }
    /// ```
    public func cachedImage(for request: ImageRequest) -> ImageResponse? {
        guard !isInvalidated else { return nil }
        let request = prepare(request)
        return memoryHit(request).map { request.delivering($0) }
    }

    /// Starts `request` and returns its handle (progress, previews, responses, cancel, priority).
    public func task(for request: ImageRequest) -> ImageTask {
        start(prepare(request))
    }

    /// Starts `request` and calls `completion` with each response (twice for a refreshed cached
    /// image) or with the error; a bridge over ``task(for:)``, not a second pipeline.
    ///
    /// ```swift
    /// let operation = manager.load(ImageRequest(url: url)) { result in
    ///     if case .success(let response) = result { show(response.image) }
    /// }
    /// operation.cancel()
    /// ```
    @discardableResult
    public func load(
        _ request: ImageRequest,
        progress: (@Sendable (ImageLoad.Progress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<ImageResponse, any Error>) -> Void
    ) -> ImageLoad.Operation {
        let task = task(for: request)
        if let progress {
            Task { for await value in task.progress { progress(value) } }
        }
        Task {
            do {
                for try await response in task.responses { completion(.success(response)) }
            } catch {
                completion(.failure(error))
            }
        }
        return ImageLoad.Operation(task: task)
    }

    /// The stage events of every request from now on (cache query, download, decode, transform,
    /// store, with durations).
    public func events() -> AsyncStream<ImageManager.Event> { broadcaster.subscribe() }

    /// The final cache key of `request` (after the options processor), or nil for an invalid URL
    /// or when the key filter turns caching off.
    public func cacheKey(for request: ImageRequest) -> String? { prepare(request).cacheKey }

    /// How many shared tasks are running (final images, transformer-chain prefixes included, then
    /// download+decode stages), those of requests that share no work included.
    public var runningTaskCounts: (finals: Int, fetches: Int) { (finals.count, fetches.count) }

    // MARK: Internals

    /// Applies the default options, the configured decode limits and the options processor.
    func prepare(_ request: ImageRequest) -> ImageRequest {
        var request = request
        if !configuration.defaultOptions.isEmpty { request.options.formUnion(configuration.defaultOptions) }
        if request.decoding.maxPixelCount == nil { request.decoding.maxPixelCount = configuration.maxPixelCount }
        if request.decoding.maxAnimationPixelCount == nil {
            request.decoding.maxAnimationPixelCount = configuration.maxAnimationPixelCount
        }
        if let processor = configuration.optionsProcessor { request = processor(request) }
        return request
    }

    /// The memory hit, synchronously, when the request allows answering from memory.
    @inline(__always)
    func memoryHit(_ request: ImageRequest) -> ImageResponse? {
        guard let url = request.namingURL, request.caching.queryType.includesMemory,
            request.options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .queryMemoryData])
        else { return nil }
        guard let key = request.cacheKey else { return nil }
        let cache = request.caching.cache ?? configuration.imageCache
        guard let image = cache.memoryImage(forKey: key) else { return nil }
        metrics.memoryHits.increment()
        return ImageResponse(image: image, cacheType: .memory, url: url)
    }

    /// Makes the task and wires it to a shared final-image job.
    func start(_ request: ImageRequest) -> ImageTask {
        let task = ImageTask(request: request)
        metrics.requests.increment()
        guard !isInvalidated else {
            task.receive(.finished(Self.invalidatedError))
            return task
        }
        guard let url = request.namingURL else {
            task.receive(.finished(WebImageError(.invalidURL, "the request has no valid URL")))
            return task
        }
        var request = request
        let originalKey: String
        if let filtered = request.originalCacheKey {
            guard !filtered.isEmpty else {
                let message = "the cache key filter gave an empty key for \(url.absoluteString)"
                task.receive(.finished(WebImageError(.invalidCacheKey, message)))
                return task
            }
            originalKey = filtered
        } else {
            // A key filter that gives nil turns caching off; the URL still names the shared work.
            request.disableCaching()
            originalKey = url.absoluteString
        }
        if let hit = memoryHit(request) {
            task.receive(.value(hit))
            task.receive(.finished(nil))
            return task
        }
        let plan = RequestPlan(request: request, url: url, originalKey: originalKey)
        let sink: SharedJob<ImageResponse>.Sink = { [task] event in task.receive(event) }
        let body: @Sendable (SharedJob<ImageResponse>) async throws -> Void = { [self] job in
            try await runFinal(plan, job: job)
        }
        let joined: (job: SharedJob<ImageResponse>, id: Int)
        if sharesWork(request) {
            joined = finals.join(plan.finalKey, priority: request.priority, sink: sink, body: body)
        } else {
            joined = finals.solo(priority: request.priority, sink: sink, body: body)
        }
        let (job, id) = joined
        // A shared job runs at the highest priority any of its callers asked for.
        if request.priority > job.priority { job.setPriority(request.priority) }
        task.attach(cancel: { job.unsubscribe(id) }, setPriority: { job.setPriority($0) })
        return task
    }
}
