public import Foundation
public import Logging
public import Metrics
public import WebImage

/// Makes several nodes sharing one Redis fetch each source from the origin once: a loader that
/// wraps another and, for each URL, either downloads it under a short Redis lock or waits for the
/// node holding the lock to put the bytes in Redis.
///
/// For a load of `url` (key: ``CacheKeys/key(for:filter:)``, the manager's original key):
/// 1. bytes already in the ``RedisImageCache`` are returned (no download), when their signature
///    verifies (an entry that does not is a miss, as for every read of the cache);
/// 2. else `SET webimage-lock:<namespace>:<key> token NX PX lockTimeToLive`: the node that takes
///    the lock looks for the bytes once more (the previous holder may have stored them and let go
///    between the look and the lock), then downloads through the wrapped loader, stores the bytes and metadata in Redis, then
///    releases the lock (check-and-delete by token; also on failure and cancellation);
/// 3. the others poll Redis every ``Configuration/pollInterval`` for the bytes; if the lock goes
///    away without bytes (the holder failed or its lock expired) they try to take it themselves,
///    and after ``Configuration/waitTimeout`` they download on their own.
///
/// Revalidations, URLs the wrapped loader's scheme coordination does not cover (not http, https or s3),
/// and any load while the cache's breaker is open go straight to the wrapped loader, as does
/// everything when Redis fails: Redis never makes a load fail.
///
/// ```swift
/// let redis = RedisImageCache(client: client, keys: RedisEntryKeyring(signing: try RedisEntryKey(parsing: "k1:" + secretHex)))
/// var configuration = ImageManager.Configuration(
///     imageCache: ImageCache(memory: [MemoryCache()], data: [redis], decoder: coders),
///     loader: RedisCoordinatedLoader(wrapping: ImageLoadersManager.standard(http: http), cache: redis),
///     coders: coders)
/// // WebImageKit's CacheTiers composes the same with a disk tier in front of Redis.
/// ```
public final class RedisCoordinatedLoader: ImageLoading {
    /// How long locks live and how long other nodes wait.
    public struct Configuration: Sendable {
        /// The lock's lifetime: a holder that dies frees the source after this (default 30 s).
        public var lockTimeToLive: Duration
        /// How long a node waits for another node's download before fetching itself (default 10 s).
        public var waitTimeout: Duration
        /// How often a waiting node looks for the bytes (default 50 ms).
        public var pollInterval: Duration
        /// The prefix of the metric labels (default `webimage_redis`).
        public var metricsPrefix: String

        /// A configuration; every value defaulted.
        public init(
            lockTimeToLive: Duration = .seconds(30), waitTimeout: Duration = .seconds(10),
            pollInterval: Duration = .milliseconds(50), metricsPrefix: String = "webimage_redis"
        ) {
            self.lockTimeToLive = lockTimeToLive
            self.waitTimeout = waitTimeout
            self.pollInterval = pollInterval
            self.metricsPrefix = metricsPrefix
        }
    }

    /// The loader that really downloads.
    public let wrapped: any ImageLoading
    /// Where the bytes are shared.
    public let cache: RedisImageCache
    /// Lock lifetime and waiting.
    public let configuration: Configuration
    private let keyFilter: (@Sendable (URL) -> String?)?
    private let logger: Logger
    private let downloads: Counter
    private let sharedHits: Counter
    private let waitTimeouts: Counter

    /// A loader coordinating `wrapped`'s downloads through `cache`'s Redis. `keyFilter` must be
    /// the manager requests' key filter, if they use one, so both name the same entry.
    public init(
        wrapping wrapped: any ImageLoading, cache: RedisImageCache, configuration: Configuration = Configuration(),
        keyFilter: (@Sendable (URL) -> String?)? = nil,
        logger: Logger = Logger(label: "WebImage.RedisCoordinatedLoader"), metricsFactory: (any MetricsFactory)? = nil
    ) {
        let factory = metricsFactory ?? MetricsSystem.factory
        self.wrapped = wrapped
        self.cache = cache
        self.configuration = configuration
        self.keyFilter = keyFilter
        self.logger = logger
        downloads = Counter(label: "\(configuration.metricsPrefix)_locked_downloads_total", factory: factory)
        sharedHits = Counter(label: "\(configuration.metricsPrefix)_shared_hits_total", factory: factory)
        waitTimeouts = Counter(label: "\(configuration.metricsPrefix)_lock_wait_timeouts_total", factory: factory)
    }

    public var name: String { wrapped.name }

    public func canLoad(_ url: URL) -> Bool { wrapped.canLoad(url) }

    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        wrapped.shouldBlockFailedURL(url, error: error)
    }

    public func load(_ request: ImageLoad.Request) -> ImageLoad.Task {
        let scheme = request.url.scheme?.lowercased()
        guard request.revalidation == nil, scheme == "http" || scheme == "https" || scheme == "s3",
            let key = CacheKeys.key(for: request.url, filter: keyFilter), !key.isEmpty
        else { return wrapped.load(request) }
        return ImageLoad.Task.run { continuation in
            try await self.coordinatedLoad(request, key: key, continuation: continuation)
        }
    }

    private func coordinatedLoad(
        _ request: ImageLoad.Request, key: String, continuation: AsyncThrowingStream<ImageLoad.Event, any Error>.Continuation
    ) async throws -> ImageLoad.Result {
        let start = ContinuousClock.now
        let lock = RedisDownloadLock(
            client: cache.client, key: "webimage-lock:\(cache.configuration.namespace):\(key)", ttl: configuration.lockTimeToLive)
        let deadline = start + configuration.waitTimeout
        while true {
            if let shared = await sharedResult(key: key, url: request.url, since: start) { return shared }
            guard cache.breaker.state == .closed, let acquired = try? await lock.acquire() else { break }
            if acquired {
                // The holder before us may have stored the bytes and released the lock between our
                // look and our lock: look again before downloading.
                if let shared = await sharedResult(key: key, url: request.url, since: start) {
                    await lock.release()
                    return shared
                }
                return try await download(request, key: key, lock: lock, continuation: continuation)
            }
            // Another node is downloading: wait for its bytes, or for its lock to go.
            while ContinuousClock.now < deadline {
                try await Task.sleep(for: configuration.pollInterval)
                if let shared = await sharedResult(key: key, url: request.url, since: start) { return shared }
                guard let held = try? await lock.isHeld() else { break }
                if !held { break }
            }
            guard ContinuousClock.now < deadline else {
                waitTimeouts.increment()
                logger.info("gave up waiting \(configuration.waitTimeout) for another node's download of \(key); fetching it here")
                break
            }
            if cache.breaker.state != .closed { break }
        }
        return try await forward(wrapped.load(request), to: continuation)
    }

    /// The result made from the bytes another node shared under `key`, counted as a shared hit;
    /// nil when Redis has none (or fails).
    private func sharedResult(key: String, url: URL, since start: ContinuousClock.Instant) async -> ImageLoad.Result? {
        guard let shared = try? await cache.entry(forKey: key) else { return nil }
        sharedHits.increment()
        return Self.result(shared, url: url, since: start)
    }

    /// Downloads under the lock, shares the bytes, releases the lock (also when failing).
    private func download(
        _ request: ImageLoad.Request, key: String, lock: RedisDownloadLock,
        continuation: AsyncThrowingStream<ImageLoad.Event, any Error>.Continuation
    ) async throws -> ImageLoad.Result {
        downloads.increment()
        let result: ImageLoad.Result
        do {
            result = try await forward(wrapped.load(request), to: continuation)
        } catch {
            await lock.release()
            throw error
        }
        let response = result.response
        let metadata = CacheEntryMetadata(originalURL: response.url, contentType: response.contentType, http: response.cacheMetadata)
        try? await cache.setData(result.data, forKey: key, metadata: metadata)
        await lock.release()
        return result
    }

    /// Runs `task`, passing its response and progress events on; cancelling the caller cancels it.
    private func forward(
        _ task: ImageLoad.Task, to continuation: AsyncThrowingStream<ImageLoad.Event, any Error>.Continuation
    ) async throws -> ImageLoad.Result {
        try await withTaskCancellationHandler {
            for try await event in task.events {
                if case .finished(let result) = event { return result }
                continuation.yield(event)
            }
            throw WebImageError(.cancelled, "the load ended without a result")
        } onCancel: {
            task.cancel()
        }
    }

    /// A load result made from bytes another node shared: status 200 and the stored headers.
    static func result(_ entry: (data: Data, metadata: CacheEntryMetadata), url: URL, since start: ContinuousClock.Instant)
        -> ImageLoad.Result
    {
        let metadata = entry.metadata
        var headers = ImageLoad.Headers()
        if let contentType = metadata.contentType { headers["Content-Type"] = contentType }
        let http = metadata.http
        if let etag = http.etag { headers["ETag"] = etag }
        if let lastModified = http.lastModified { headers["Last-Modified"] = lastModified }
        if let cacheControl = http.cacheControl { headers["Cache-Control"] = cacheControl }
        if let expires = http.expires { headers["Expires"] = expires }
        if let date = http.date { headers["Date"] = date }
        if let age = http.age { headers["Age"] = String(age) }
        headers["Content-Length"] = String(entry.data.count)
        let elapsed = ContinuousClock.now - start
        return ImageLoad.Result(
            data: entry.data, response: ImageLoad.Response(url: metadata.originalURL ?? url, statusCode: 200, headers: headers),
            metrics: ImageLoad.Metrics(receivedBytes: entry.data.count, timeToFirstByte: elapsed, totalDuration: elapsed))
    }
}
