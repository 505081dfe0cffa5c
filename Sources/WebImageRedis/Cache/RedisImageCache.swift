public import Foundation
public import Logging
public import Metrics
public import WebImage

/// The data side of caching on Redis (``ImageDataCaching``): bytes and metadata per key, shared by
/// every node that points at the same server, usually behind a memory and a disk tier
/// (``WebImage/ImageCache/tiered(namespace:decoder:disk:redis:)``).
///
/// Each entry is one Redis hash `webimage:<namespace>:<key>` holding the bytes and the metadata,
/// written by one Lua script, so a reader never sees bytes without their metadata or the reverse.
/// Entries expire ``Configuration/maxAge`` after their last write (`PEXPIRE`); eviction under
/// memory pressure is Redis's own (`maxmemory-policy allkeys-lru`). Data larger than
/// ``Configuration/maxEntrySize`` is not stored (an older entry for the key is removed).
/// ``count()``, ``totalBytes()`` and ``removeAllData()`` walk the namespace with `SCAN`.
///
/// When Redis is down or slow, a ``CircuitBreaker`` stops asking it for a while; meanwhile reads
/// are misses and writes are skipped (with ``Configuration/degradesWhenUnavailable``), so requests
/// go on from the local tiers and the origin. Metrics: `<prefix>_unavailable_total` (failures),
/// `<prefix>_skipped_total` (calls not made while open), `<prefix>_breaker_state` (0 closed,
/// 1 half-open, 2 open); each state change is logged as a warning.
///
/// ```swift
/// let client = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:6379"))
/// let redis = RedisImageCache(client: client, configuration: .init(namespace: "thumbs"))
/// try await redis.setData(bytes, forKey: url.absoluteString, metadata: CacheEntryMetadata(originalURL: url))
/// let hit = try await redis.entry(forKey: url.absoluteString)
/// ```
public final class RedisImageCache: ImageDataCaching {
    /// The namespace, lifetime, size cap and failure handling of a ``RedisImageCache``.
    public struct Configuration: Sendable {
        /// Separates caches sharing one database: keys are `webimage:<namespace>:<key>`.
        public var namespace: String
        /// How long an entry lives after its last write (TTL); `nil`: until evicted. Default 7 days.
        public var maxAge: Duration?
        /// The largest entry stored, in bytes (default 16 MiB).
        public var maxEntrySize: Int
        /// When Redis is unreachable or times out (or the breaker is open), reads are misses and
        /// writes are skipped instead of throwing (default `true`). Counts and totals always throw.
        public var degradesWhenUnavailable: Bool
        /// When the breaker opens and for how long.
        public var breaker: CircuitBreaker.Configuration
        /// The prefix of the metric labels (default `webimage_redis`).
        public var metricsPrefix: String

        /// A configuration; every value defaulted.
        public init(
            namespace: String = "default", maxAge: Duration? = .seconds(7 * 24 * 3600), maxEntrySize: Int = 16 << 20,
            degradesWhenUnavailable: Bool = true, breaker: CircuitBreaker.Configuration = .init(),
            metricsPrefix: String = "webimage_redis"
        ) {
            self.namespace = namespace
            self.maxAge = maxAge
            self.maxEntrySize = maxEntrySize
            self.degradesWhenUnavailable = degradesWhenUnavailable
            self.breaker = breaker
            self.metricsPrefix = metricsPrefix
        }
    }

    /// The client commands go through.
    public let client: RedisClient
    /// The namespace, lifetime, size cap and failure handling.
    public let configuration: Configuration
    /// The breaker guarding every call.
    public let breaker: CircuitBreaker
    let keyPrefix: String
    private let clock: any CacheClock
    private let logger: Logger
    private let unavailable: Counter
    private let skipped: Counter

    /// A cache over `client`. `clock` dates the entries and drives the breaker; `metricsFactory`
    /// `nil` uses the bootstrapped `MetricsSystem.factory`.
    public init(
        client: RedisClient, configuration: Configuration = Configuration(), clock: any CacheClock = SystemCacheClock(),
        logger: Logger = Logger(label: "WebImage.RedisImageCache"), metricsFactory: (any MetricsFactory)? = nil
    ) {
        let factory = metricsFactory ?? MetricsSystem.factory
        let prefix = configuration.metricsPrefix
        let state = Gauge(label: "\(prefix)_breaker_state", factory: factory)
        state.record(0)
        let address = client.configuration.redactedURL
        self.client = client
        self.configuration = configuration
        self.keyPrefix = "webimage:\(configuration.namespace):"
        self.clock = clock
        self.logger = logger
        self.unavailable = Counter(label: "\(prefix)_unavailable_total", factory: factory)
        self.skipped = Counter(label: "\(prefix)_skipped_total", factory: factory)
        self.breaker = CircuitBreaker(configuration: configuration.breaker, clock: clock) { old, new in
            state.record(new == .closed ? 0 : new == .halfOpen ? 1 : 2)
            switch new {
            case .open:
                logger.warning("Redis at \(address) is unavailable: not asking it for \(configuration.breaker.openDuration) (breaker open)")
            case .halfOpen:
                logger.info("probing Redis at \(address) again (breaker half-open)")
            case .closed:
                logger.warning("Redis at \(address) answers again (breaker closed, was \(old.rawValue))")
            }
        }
    }

    /// The Redis key of a cache key.
    func redisKey(_ key: String) -> String { keyPrefix + key }

    public func entry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)? {
        guard !key.isEmpty else { return nil }
        return try await guarded("HGETALL", fallback: nil) {
            let reply = try await client.send("HGETALL", redisKey(key))
            return RedisEntryFields.entry(from: reply, readAt: clock.now())
        }
    }

    public func setData(_ data: Data, forKey key: String, metadata: CacheEntryMetadata?) async throws {
        try CacheKeys.validate(key)
        guard data.count <= configuration.maxEntrySize else {
            logger.debug("not storing \(key) in Redis: \(data.count) bytes, over the \(configuration.maxEntrySize)-byte cap")
            try await removeData(forKey: key)
            return
        }
        let now = clock.now()
        var arguments: [any RESPArgument] = [RedisEntryScripts.store, 1, redisKey(key), ttlMilliseconds, RedisEntryFields.timestamp(now)]
        arguments += RedisEntryFields.storeArguments(data: data, metadata: metadata, now: now)
        try await guarded("EVAL", fallback: ()) { _ = try await client.send(RedisCommand("EVAL", arguments)) }
    }

    public func removeData(forKey key: String) async throws {
        guard !key.isEmpty else { return }
        try await guarded("UNLINK", fallback: ()) { _ = try await client.send("UNLINK", redisKey(key)) }
    }

    public func removeAllData() async throws {
        try await guarded("SCAN", fallback: (), degrades: false) {
            try await forEachKeyBatch { keys in
                _ = try await client.send(RedisCommand("UNLINK", keys))
            }
        }
    }

    public func containsData(forKey key: String) async throws -> Bool {
        guard !key.isEmpty else { return false }
        return try await guarded("EXISTS", fallback: false) {
            try await client.send("EXISTS", redisKey(key)).integer == 1
        }
    }

    public func count() async throws -> Int {
        try await guarded("SCAN", fallback: 0, degrades: false) {
            var count = 0
            try await forEachKeyBatch { count += $0.count }
            return count
        }
    }

    public func totalBytes() async throws -> Int {
        try await guarded("SCAN", fallback: 0, degrades: false) {
            var total = 0
            try await forEachKeyBatch { keys in
                let replies = try await client.pipeline(keys.map { RedisCommand("HSTRLEN", [$0, RedisEntryFields.data]) })
                total += replies.reduce(0) { $0 + Int($1.integer ?? 0) }
            }
            return total
        }
    }

    @discardableResult
    public func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool {
        guard !key.isEmpty else { return false }
        var arguments: [any RESPArgument] = [RedisEntryScripts.revalidate, 1, redisKey(key), ttlMilliseconds]
        arguments += [RedisEntryFields.modified, RedisEntryFields.timestamp(clock.now())]
        for (field, value) in RedisEntryFields.httpFields(http) { arguments += [field, value] }
        return try await guarded("EVAL", fallback: false) {
            try await client.send(RedisCommand("EVAL", arguments)).integer == 1
        }
    }

    /// The TTL argument of the scripts: ``Configuration/maxAge`` in ms, 0 for none.
    private var ttlMilliseconds: Int64 {
        guard let maxAge = configuration.maxAge, maxAge > .zero else { return 0 }
        let (seconds, attoseconds) = maxAge.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Runs `body` on every batch of this namespace's Redis keys (`SCAN … MATCH prefix*`).
    private func forEachKeyBatch(_ body: ([String]) async throws -> Void) async throws {
        let pattern = Self.globEscaped(keyPrefix) + "*"
        var cursor = "0"
        repeat {
            let reply = try await client.send("SCAN", cursor, "MATCH", pattern, "COUNT", 1000)
            guard let parts = reply.elements, parts.count == 2, let next = parts[0].string, let keys = parts[1].elements else {
                throw WebImageError.redisProtocol("an unexpected SCAN reply")
            }
            let names = keys.compactMap(\.string)
            if !names.isEmpty { try await body(names) }
            cursor = next
        } while cursor != "0"
    }

    /// `text` with the glob characters of `SCAN MATCH` escaped.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "*?[]\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Runs `body` through the breaker. Unavailability (refused, lost, timed out, breaker open)
    /// opens the breaker after the threshold and, when degrading (the configuration's and the
    /// call's `degrades`), gives `fallback`.
    private func guarded<T>(
        _ command: String, fallback: T, degrades: Bool = true, _ body: () async throws -> T
    ) async throws -> T {
        guard breaker.allowsRequest() else {
            skipped.increment()
            if degrades, configuration.degradesWhenUnavailable { return fallback }
            throw WebImageError(.redisUnavailable, "Redis at \(client.configuration.redactedURL) is not asked: the breaker is open")
        }
        do {
            let value = try await body()
            breaker.recordSuccess()
            return value
        } catch let error as WebImageError where Self.isUnavailability(error) {
            unavailable.increment()
            breaker.recordFailure()
            logger.debug("Redis \(command) failed: \(error)")
            if degrades, configuration.degradesWhenUnavailable { return fallback }
            throw error
        } catch {
            breaker.recordSuccess()  // the server answered (an error reply is not an outage)
            throw error
        }
    }

    static func isUnavailability(_ error: WebImageError) -> Bool {
        error.code == .redisUnavailable || error.code == .timedOut || error.code == .redisProtocol
    }
}
