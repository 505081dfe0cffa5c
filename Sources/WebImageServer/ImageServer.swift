import Foundation
import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle
public import UnixSignals
import Synchronization
import WebImageKit
import WebImageRedis

/// `webimage serve`: the library's pipeline behind HTTP (Hummingbird 2) — imgproxy-style signed
/// URLs, limits checked before work, admission control, caching headers, Prometheus metrics and a
/// graceful shutdown on SIGTERM.
///
/// ```swift
/// var configuration = ImageServerConfiguration()
/// configuration.port = 0
/// configuration.allowsUnsigned = true
/// let server = try ImageServer(configuration: configuration)
/// try await server.run { port in print("listening on", port) }
/// ```
public final class ImageServer: Sendable {
    /// The settings it was made with.
    public let configuration: ImageServerConfiguration
    let service: ImageService
    let http: HTTPImageLoader
    /// The disk and Redis tiers behind the service's memory.
    let tiers: CacheTiers
    let readiness: Readiness
    let logger: Logger
    private let group = Mutex<ServiceGroup?>(nil)
    private let boundPort = Mutex<Int?>(nil)

    /// A server with `configuration`; throws when the local root does not exist, or when a Redis
    /// tier has no key to sign its entries with (``ImageServerConfiguration/redisKeyring()``).
    public init(configuration: ImageServerConfiguration, logger: Logger = Logger(label: "WebImage.Server")) throws {
        self.configuration = configuration
        self.logger = logger
        if let root = configuration.localRoot {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw WebImageError(.invalidServerConfiguration, "the local root \(root.path) is not a directory")
            }
        }
        // Before anything is opened: bad presets and a Redis tier without a key are configuration errors.
        let presets = try configuration.loadPresets()
        try configuration.checkFallbackImage(coders: .standard())
        try configuration.checkWatermark(coders: .standard())
        let redisKeys = try configuration.redis.map { _ in try configuration.redisKeyring() }
        try configuration.checkS3()
        var loading = HTTPImageLoaderConfiguration()
        loading.maximumResponseBytes = configuration.limits.maxSourceBytes
        loading.totalTimeout = configuration.limits.requestTimeout
        loading.urlPolicy = configuration.urlPolicy
        loading.s3 = configuration.s3
        loading.maximumConcurrentDownloads = max(16, configuration.concurrency * 4)
        if configuration.originRetries > 0 {
            loading.retryStrategy = .exponentialBackoff(maximumRetries: configuration.originRetries)
        }
        loading.logger = logger
        http = HTTPImageLoader(configuration: loading)
        let metrics = ServiceMetrics()
        var disk: DiskCache?
        if let directory = configuration.cacheDirectory {
            // No fsync per entry: a crash still never exposes a partial file (temporary file and
            // rename), and an entry a power loss takes is made again on the next miss.
            do {
                disk = try DiskCache(
                    configuration: DiskCacheConfiguration(
                        directory: directory, maxSize: configuration.maxDiskCacheBytes, synchronousWrites: false,
                        clock: configuration.clock))
            } catch {
                // An unusable cache directory costs the cache, not the service.
                logger.warning("the cache directory \(directory.path) cannot be used, serving without a disk cache: \(error)")
                metrics.diskCacheUnavailable.record(1)
            }
        }
        // Redis entries live as long as the results' Cache-Control says; Redis's own LRU evicts.
        // They are signed, and what does not verify is a miss: a writer to Redis decides nothing.
        var redis: RedisImageCache?
        if let redisConfiguration = configuration.redis, let redisKeys {
            redis = RedisImageCache(
                client: RedisClient(configuration: redisConfiguration), keys: redisKeys,
                configuration: .init(namespace: configuration.redisNamespace, maxAge: .seconds(max(60, configuration.cacheMaxAge))),
                logger: logger, metricsFactory: metrics.factory)
        }
        tiers = CacheTiers(disk: disk, redis: redis)
        // The key the source fetcher reads originals under, so the lock holder's bytes are found.
        let loader = tiers.coordinating(
            ImageLoadersManager(loaders: [http]), keyFilter: { CacheKeys.serviceSource($0) }, logger: logger,
            metricsFactory: metrics.factory)
        readiness = Readiness(redis: redis)
        service = ImageService(
            configuration: configuration, coders: .standard(), loaders: loader, data: tiers.data, tiers: tiers, metrics: metrics,
            logger: logger, presets: presets)
    }

    /// The port the server listens on, once it does.
    public var port: Int? { boundPort.withLock { $0 } }

    /// Serves until a graceful shutdown (`signals`, or ``shutdown()``): stops accepting, finishes
    /// the running requests, then closes the caches and the HTTP client. `onListening` gets the
    /// bound port (useful with port 0).
    public func run(
        gracefulShutdownSignals signals: [UnixSignal] = [.sigterm, .sigint],
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        if let redis = tiers.redis { await checkRedis(redis) }
        // Before listening: a watermark that cannot be read or decoded stops the start.
        do {
            try await service.loadConfiguredWatermark()
        } catch {
            await close()
            throw error
        }
        let router = ServiceRouter.make(service: service, readiness: readiness, logger: logger)
        let headerTimeout = TimeAmount.nanoseconds(Self.nanoseconds(configuration.headerTimeout))
        let app = Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [HeaderTimeoutHandler(timeout: headerTimeout)],
                    idleTimeout: .nanoseconds(Self.nanoseconds(configuration.idleTimeout)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? 0
                boundPort.withLock { $0 = port }
                readiness.set(true)
                await onListening(port)
            },
            logger: logger)
        let serviceGroup = ServiceGroup(
            configuration: .init(
                services: [
                    app, ReadinessService(readiness: readiness, drainDelay: configuration.drainDelay),
                    MemoryPressureService(service: service),
                ] + (configuration.presetsFile == nil ? [] : [PresetReloadService(server: self)]),
                gracefulShutdownSignals: signals, logger: logger))
        group.withLock { $0 = serviceGroup }
        do {
            try await serviceGroup.run()
        } catch {
            await close()
            throw error
        }
        await close()
    }

    /// Starts a graceful shutdown: `/ready` answers 503, no new connection is accepted, running
    /// requests finish, then ``run(gracefulShutdownSignals:onListening:)`` returns.
    public func shutdown() async {
        let serviceGroup = group.withLock { $0 }
        await serviceGroup?.triggerGracefulShutdown()
    }

    /// Reads the presets again (``ImageServerConfiguration/loadPresets()``: the file, the
    /// configuration's over it) and puts them in force for the requests that start after it;
    /// requests already parsed keep the set they read. A bad file throws and the old set stays.
    public func reloadPresets() throws {
        let presets = try configuration.loadPresets()
        service.presets.withLock { $0 = presets }
        logger.info("presets reloaded: \(presets.definitions.keys.sorted().joined(separator: ", "))")
    }

    /// Asks Redis once before listening, so that an unreachable server or refused credentials
    /// are in the log (and in `/ready`'s details) from the start, not at the first request.
    private func checkRedis(_ redis: RedisImageCache) async {
        let address = redis.client.configuration.redactedURL
        switch await redis.checkHealth() {
        case .available:
            logger.info("Redis at \(address) answers; entries are signed with key id `\(redis.keys.signing.id)`")
        case .unavailable(let message):
            logger.warning("Redis at \(address) cannot be reached (\(message)): serving without the shared tier until it answers")
        case .authenticationFailed, .unknown:
            break  // refused credentials are logged as an error by the cache itself
        }
    }

    private func close() async {
        readiness.set(false)
        try? await http.shutdown()
        await service.writes.drain()
        await tiers.close()
    }
}

extension ImageServer {
    /// Whole nanoseconds of `duration` (saturating).
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
