import Crypto
public import Foundation
public import Logging
public import Metrics
public import WebImage

/// The data side of caching on Redis (``ImageDataCaching``): bytes and metadata per key, shared by
/// every node that points at the same server, usually behind a memory and a disk tier
/// (`CacheTiers` and `ImageCache.tiered(…, redis:)` in `WebImageKit` compose them).
///
/// Each entry is one Redis hash `webimage:<namespace>:<key>` holding the bytes, the metadata and
/// their signature, written by one Lua script, so a reader never sees bytes without their metadata
/// or the reverse. Entries expire ``Configuration/maxAge`` after their last write (`PEXPIRE`);
/// eviction under memory pressure is Redis's own (`maxmemory-policy allkeys-lru`). Data larger than
/// ``Configuration/maxEntrySize`` is not stored (an older entry for the key is removed).
/// ``count()``, ``totalBytes()`` and ``removeAllData()`` walk the namespace with `SCAN`.
///
/// **Entries are authenticated.** Whoever can write to Redis must not decide what the nodes serve
/// (and copy to their disks), so every entry carries an HMAC-SHA256 over its Redis key, its bytes
/// and every metadata field, and the id of the ``RedisEntryKey`` that made it. A read checks it in
/// constant time against the ``RedisEntryKeyring``; an entry that is unsigned (the format of
/// earlier versions), signed with an unknown key id, or whose MAC does not verify is a miss
/// (never promoted to a disk tier), logged with its key and reason and counted in
/// `<prefix>_rejected_entries_total{reason}`. It is left in place (a node that does not know a new
/// key yet must not delete what the others wrote) and replaced by the next store.
/// ``containsData(forKey:)`` checks the signature over the fields and the recorded digest, not
/// the bytes; counts and totals count every hash in the namespace.
///
/// When Redis is down or slow, a ``CircuitBreaker`` stops asking it for a while; meanwhile reads
/// are misses and writes are skipped (with ``Configuration/degradesWhenUnavailable``), so requests
/// go on from the local tiers and the origin. A server that refuses the credentials (`NOAUTH`,
/// `WRONGPASS`) is treated the same way, logged as an error when it starts and reported by
/// ``health``. Metrics: `<prefix>_unavailable_total` (failures), `<prefix>_skipped_total` (calls
/// not made while open), `<prefix>_breaker_state` (0 closed, 1 half-open, 2 open),
/// `<prefix>_auth_failed` (1 while the credentials are refused), `<prefix>_auth_failures_total`,
/// `<prefix>_rejected_entries_total{reason}`; each breaker state change is logged as a warning.
///
/// ```swift
/// let client = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:6379"))
/// let keys = RedisEntryKeyring(signing: try RedisEntryKey(parsing: "k1:" + secretHex))
/// let redis = RedisImageCache(client: client, keys: keys, configuration: .init(namespace: "thumbs"))
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
    /// The keys entries are signed with and checked against.
    public let keys: RedisEntryKeyring
    let keyPrefix: String
    private let clock: any CacheClock
    private let logger: Logger
    private let unavailable: Counter
    private let skipped: Counter
    private let monitor: RedisTierMonitor

    /// A cache over `client` whose entries are signed with `keys`. `clock` dates the entries and
    /// drives the breaker; `metricsFactory` `nil` uses the bootstrapped `MetricsSystem.factory`.
    public init(
        client: RedisClient, keys: RedisEntryKeyring, configuration: Configuration = Configuration(),
        clock: any CacheClock = SystemCacheClock(), logger: Logger = Logger(label: "WebImage.RedisImageCache"),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        let factory = metricsFactory ?? MetricsSystem.factory
        let prefix = configuration.metricsPrefix
        let state = Gauge(label: "\(prefix)_breaker_state", factory: factory)
        state.record(0)
        let address = client.configuration.redactedURL
        self.client = client
        self.keys = keys
        self.configuration = configuration
        self.keyPrefix = "webimage:\(configuration.namespace):"
        self.clock = clock
        self.logger = logger
        self.unavailable = Counter(label: "\(prefix)_unavailable_total", factory: factory)
        self.skipped = Counter(label: "\(prefix)_skipped_total", factory: factory)
        self.monitor = RedisTierMonitor(prefix: prefix, factory: factory, logger: logger, address: address, clock: clock)
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

    /// What the last command (or ``checkHealth()``) learned of the server: answering, unreachable,
    /// or refusing the credentials.
    public var health: RedisTierHealth { monitor.health }

    /// Sends `PING` (past the breaker) and returns what it learned, also kept in ``health``: a
    /// server that refuses the credentials is logged as an error and counted, as on any command.
    /// A service calls it at start so that a wrong or missing password is reported at once.
    @discardableResult
    public func checkHealth() async -> RedisTierHealth {
        do {
            _ = try await client.send("PING")
            monitor.answered()
        } catch let error as WebImageError {
            if let refusal = Self.credentialsRefusal(error) {
                monitor.refusedCredentials(refusal)
            } else if Self.isUnavailability(error) {
                monitor.unreachable(error)
            } else {
                monitor.answered()
            }
        } catch {
            monitor.unreachable(WebImageError(.redisUnavailable, "\(error)"))
        }
        return monitor.health
    }

    public func entry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)? {
        guard !key.isEmpty else { return nil }
        let redisKey = redisKey(key)
        return try await guarded("HGETALL", fallback: nil) {
            guard let record = RedisEntryRecord(hashReply: try await client.send("HGETALL", redisKey)),
                trusts(record, redisKey: redisKey)
            else { return nil }
            return record.entry(readAt: clock.now())
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
        let redisKey = redisKey(key)
        try await guarded("EVAL", fallback: ()) {
            // The first store's `created` is kept, when the entry that holds it is authentic.
            var created = RedisEntryFields.timestamp(now)
            if let existing = try await header(redisKey), trusts(existing, redisKey: redisKey),
                let kept = existing.text(RedisEntryFields.created)
            {
                created = kept
            }
            var fields = RedisEntryFields.fields(for: metadata, created: created, modified: now)
            RedisEntrySignature.sign(&fields, redisKey: redisKey, digest: Data(SHA256.hash(data: data)), with: keys.signing)
            let record = RedisEntryRecord(data: data, fields: fields)
            var arguments: [any RESPArgument] = [RedisEntryScripts.store, 1, redisKey, ttlMilliseconds, RedisEntryFields.data, data]
            arguments += record.flattenedFields
            _ = try await client.send(RedisCommand("EVAL", arguments))
        }
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

    /// Removes every entry whose cache key starts with `prefix`, walking the namespace with `SCAN
    /// … MATCH` (O(keys in the database): for rare sweeps such as a purge); returns how many went.
    /// An unavailable Redis throws.
    ///
    /// ```swift
    /// let removed = try await redis.removeData(keysWithPrefix: "result:https://example.com/a.png|")
    /// ```
    @discardableResult
    public func removeData(keysWithPrefix prefix: String) async throws -> Int {
        guard !prefix.isEmpty else { return 0 }
        return try await guarded("SCAN", fallback: 0, degrades: false) {
            var removed = 0
            try await forEachKeyBatch(prefix: keyPrefix + prefix) { keys in
                removed += Int(try await client.send(RedisCommand("UNLINK", keys)).integer ?? 0)
            }
            return removed
        }
    }

    public func containsData(forKey key: String) async throws -> Bool {
        guard !key.isEmpty else { return false }
        let redisKey = redisKey(key)
        return try await guarded("HMGET", fallback: false) {
            guard let record = try await header(redisKey) else { return false }
            return trusts(record, redisKey: redisKey)
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
        let redisKey = redisKey(key)
        let now = clock.now()
        return try await guarded("EVAL", fallback: false) {
            guard let record = try await header(redisKey), trusts(record, redisKey: redisKey),
                let oldMAC = record.fields[RedisEntryFields.mac], let digestText = record.text(RedisEntryFields.digest),
                let digest = Data(hexString: digestText)
            else { return false }
            // The 304's headers replace the stored ones (absent ones are kept); the entry is
            // signed again, over the digest of bytes that stay in place.
            var fields = record.fields
            for name in [RedisEntryFields.digest, RedisEntryFields.keyID, RedisEntryFields.mac] { fields[name] = nil }
            for (field, value) in RedisEntryFields.httpFields(http) { fields[field] = Data(value.utf8) }
            fields[RedisEntryFields.modified] = Data(RedisEntryFields.timestamp(now).utf8)
            RedisEntrySignature.sign(&fields, redisKey: redisKey, digest: digest, with: keys.signing)
            var arguments: [any RESPArgument] = [RedisEntryScripts.revalidate, 1, redisKey, ttlMilliseconds, oldMAC]
            arguments += RedisEntryRecord(data: nil, fields: fields).flattenedFields
            return try await client.send(RedisCommand("EVAL", arguments)).integer == 1
        }
    }

    /// Every field of `redisKey`'s entry but its bytes; nil when there is no entry.
    private func header(_ redisKey: String) async throws -> RedisEntryRecord? {
        RedisEntryRecord(headerReply: try await client.send(RedisCommand("HMGET", [redisKey] + RedisEntryFields.header)))
    }

    /// Whether `record`'s signature verifies; a record that does not is reported.
    private func trusts(_ record: RedisEntryRecord, redisKey: String) -> Bool {
        guard let rejection = RedisEntrySignature.check(record, redisKey: redisKey, keys: keys) else { return true }
        monitor.rejected(redisKey: redisKey, reason: rejection, keyID: record.text(RedisEntryFields.keyID))
        return false
    }

    /// The TTL argument of the scripts: ``Configuration/maxAge`` in ms, 0 for none.
    private var ttlMilliseconds: Int64 {
        guard let maxAge = configuration.maxAge, maxAge > .zero else { return 0 }
        let (seconds, attoseconds) = maxAge.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Runs `body` on every batch of this namespace's Redis keys starting with `prefix` (`SCAN …
    /// MATCH prefix*`; every key of the namespace when nil).
    private func forEachKeyBatch(prefix: String? = nil, _ body: ([String]) async throws -> Void) async throws {
        let pattern = Self.globEscaped(prefix ?? keyPrefix) + "*"
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
    /// and refused credentials open the breaker after the threshold and, when degrading (the
    /// configuration's and the call's `degrades`), give `fallback`.
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
            monitor.answered()
            return value
        } catch let error as WebImageError where Self.isUnavailability(error) {
            unavailable.increment()
            breaker.recordFailure()
            monitor.unreachable(error)
            logger.debug("Redis \(command) failed: \(error)")
            if degrades, configuration.degradesWhenUnavailable { return fallback }
            throw error
        } catch let error as WebImageError where Self.credentialsRefusal(error) != nil {
            // Nothing can be read or written without them: as good as down, but said loudly.
            breaker.recordFailure()
            if let refusal = Self.credentialsRefusal(error) { monitor.refusedCredentials(refusal) }
            if degrades, configuration.degradesWhenUnavailable { return fallback }
            throw error
        } catch {
            breaker.recordSuccess()  // the server answered (an error reply is not an outage)
            monitor.answered()
            throw error
        }
    }

    /// The server's refusal of the credentials, when `error` is one.
    static func credentialsRefusal(_ error: WebImageError) -> RedisServerError? {
        guard error.code == .redisError, let reply = error.redisServerError, reply.isAuthenticationFailure else { return nil }
        return reply
    }

    static func isUnavailability(_ error: WebImageError) -> Bool {
        error.code == .redisUnavailable || error.code == .timedOut || error.code == .redisProtocol
    }
}
