public import Foundation
import Dispatch
public import WebImage

/// A crash-safe, size-bounded disk cache of encoded image bytes with per-entry metadata
/// (SDWebImage's `SDDiskCache`, with an index instead of file dates): the data side
/// (``ImageDataCaching``) of an ``ImageCache``, as it stands, with no adapter.
///
/// Layout: `<directory>/data/<sha256-hex-of-key>` holds each entry's bytes and
/// `<directory>/index.sqlite` (SQLite in WAL mode, through GRDB) holds its metadata, dates and
/// recency, so LRU and expiry never depend on the filesystem's dates. Every write is atomic
/// (temporary file, `fsync`, `rename`, then the index commit). A data file that is missing, of the
/// wrong size or whose SHA-256 differs from the one recorded when it was stored is a miss that
/// removes the entry. Several processes may share one directory.
///
/// Faults it mends by itself: an index SQLite cannot read (garbage, truncated, failing its quick
/// check) is moved aside to `index.sqlite.broken` and an empty one is started
/// (``movedAsideIndex``); a directory removed from outside is recreated by the next store.
///
/// All work runs on the cache's own serial dispatch queue: callers suspend, they never block.
/// Reads take no write lock: their access order is written in batches (every 128 reads, 2 s, any
/// write, and ``close()``; ``DiskCacheConfiguration/accessBatchSize``). Expired entries are swept when the cache opens and then every
/// ``DiskCacheConfiguration/sweepInterval``; reads treat them as misses in between. Call
/// ``close()`` when done, so the index's write-ahead log is checkpointed and truncated.
///
/// ```swift
/// let disk = try DiskCache(namespace: "thumbnails")
/// try await disk.setData(bytes, forKey: url.absoluteString, metadata: CacheEntryMetadata(originalURL: url))
/// let bytes = try await disk.data(forKey: url.absoluteString)
/// try await disk.close()
/// ```
public final class DiskCache: ImageDataCaching {
    /// The configuration the cache was opened with.
    public let configuration: DiskCacheConfiguration
    let runner: DiskQueue
    private let opening: Task<Void, Never>
    private let sweeper: Task<Void, Never>?

    /// Opens (creating if needed) the cache described by `configuration`. Migration from
    /// ``DiskCacheConfiguration/migratingFrom``, the expiry sweep and the removal of crash
    /// leftovers then run in the background, before any other operation of this instance.
    public init(configuration: DiskCacheConfiguration) throws {
        self.configuration = configuration
        let store = try DiskStore(configuration: configuration)
        let queue = DispatchQueue(label: "WebImageDiskCache.\(configuration.directory.lastPathComponent)")
        let runner = DiskQueue(store: store, queue: queue)
        self.runner = runner
        let batchMilliseconds = Int(min(configuration.accessBatchInterval / .milliseconds(1), 86_400_000))
        // A cycle (store → closure → store) that close() breaks; deinit closes.
        store.scheduleAccessFlush = {
            queue.asyncAfter(deadline: .now() + .milliseconds(max(0, batchMilliseconds))) { try? store.flushAccesses() }
        }
        // Enqueued before init returns, so every later operation runs after the migration.
        let migrated = runner.enqueue { store in
            if let source = configuration.migratingFrom { _ = try store.migrate(from: source) }
            _ = try store.removeLeftovers()
        }
        opening = Task.detached(priority: .utility) {
            _ = try? await migrated.value
            _ = try? await runner.sweepExpired()
        }
        if let interval = configuration.sweepInterval {
            sweeper = Task.detached(priority: .background) {
                while (try? await Task.sleep(for: interval)) != nil {
                    _ = try? await runner.sweepExpired()
                }
            }
        } else {
            sweeper = nil
        }
    }

    /// Opens the cache in the default directory for `namespace`
    /// (`$XDG_CACHE_HOME/webimage/<namespace>` or `~/.cache/webimage/<namespace>`).
    public convenience init(namespace: String) throws {
        try self.init(configuration: DiskCacheConfiguration(namespace: namespace))
    }

    deinit {
        sweeper?.cancel()
        // A cache released without close() still writes its pending access order and checkpoints.
        let store = runner.store
        runner.queue.async { try? store.close() }
    }

    /// Where an index that could not be read was moved when this cache opened
    /// (`<directory>/index.sqlite.broken`), or `nil` when the index was sound. Its entries are
    /// lost: the cache started empty and removed their data files.
    ///
    /// ```swift
    /// if let broken = cache.movedAsideIndex { print("warning: the cache index was unreadable; moved to \(broken.path)") }
    /// ```
    public var movedAsideIndex: URL? { runner.store.movedAsideIndex }

    /// Writes the pending access order, checkpoints the index's write-ahead log and truncates it,
    /// gives the pages of removed rows back to the filesystem, and closes the index. Work started
    /// by opening finishes first; every later operation throws ``WebImageError/Code/cacheIO``.
    /// Closing twice does nothing.
    ///
    /// ```swift
    /// defer { Task { try? await cache.close() } }
    /// ```
    public func close() async throws {
        sweeper?.cancel()
        await opening.value
        try await runner.run(evenIfClosed: true) { try $0.close() }
    }

    /// Waits until the work started by opening (migration, leftovers, first sweep) is done.
    public func waitUntilOpened() async {
        await opening.value
    }

    /// The bytes and metadata stored for `key` (or found in a read-only directory), marking the
    /// entry most recently used; `nil` on a miss. (``ImageDataCaching/data(forKey:)`` gives the
    /// bytes alone.)
    public func entry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)? {
        try await runner.run { try $0.read(key: key) }
    }

    /// The metadata of `key`'s entry, without reading its bytes or changing its recency.
    public func metadata(forKey key: String) async throws -> CacheEntryMetadata? {
        try await runner.run { try $0.metadata(key: key) }
    }

    /// Stores `data` for `key` with `metadata`, atomically; then evicts least recently used
    /// entries if the cache is over ``DiskCacheConfiguration/maxSize``. Data larger than
    /// `maxSize` is not stored (and any older entry for `key` is removed). The empty key throws
    /// `invalidCacheKey`.
    public func setData(_ data: Data, forKey key: String, metadata: CacheEntryMetadata? = nil) async throws {
        try CacheKeys.validate(key)
        try await runner.run { try $0.write(key: key, data: data, metadata: metadata) }
    }

    /// Replaces the caller-provided metadata of `key`'s entry (URL, content type, HTTP headers,
    /// extended data), keeping its bytes: e.g. after a 304 revalidation. Returns whether the
    /// entry existed.
    @discardableResult
    public func updateMetadata(_ metadata: CacheEntryMetadata, forKey key: String) async throws -> Bool {
        try await runner.run { try $0.updateMetadata(key: key, metadata: metadata) }
    }

    /// Records a `304 Not Modified` answer to a revalidation of `key`: the 304's validators and
    /// freshness headers replace the stored ones (absent ones are kept) and the entry's
    /// modification date restarts, so expiry by modification date counts from now. Returns whether
    /// the entry existed.
    @discardableResult
    public func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool {
        try await runner.run { try $0.recordRevalidation(key: key, http: http) }
    }

    /// Removes `key`'s entry.
    public func removeData(forKey key: String) async throws {
        try await runner.run { try $0.remove(key: key) }
    }

    /// Removes every entry whose key starts with `prefix` (one SQL scan of the index: for rare
    /// sweeps such as a purge); returns how many went.
    ///
    /// ```swift
    /// let removed = try await disk.removeData(keysWithPrefix: "result:https://example.com/a.png|")
    /// ```
    @discardableResult
    public func removeData(keysWithPrefix prefix: String) async throws -> Int {
        guard !prefix.isEmpty else { return 0 }
        return try await runner.run { try $0.remove(keysWithPrefix: prefix) }
    }

    /// Removes `key`'s entry and every entry stored with `originalURL` as its
    /// ``CacheEntryMetadata/originalURL`` (the manager stores a URL's transformed and thumbnail
    /// entries so); returns how many went. One SQL scan of the index.
    ///
    /// ```swift
    /// let removed = try await disk.removeData(forKey: url.absoluteString, orOriginalURL: url)
    /// ```
    @discardableResult
    public func removeData(forKey key: String, orOriginalURL originalURL: URL) async throws -> Int {
        try await runner.run { try $0.remove(key: key, orOriginalURL: originalURL.absoluteString) }
    }

    /// Removes every entry.
    public func removeAllData() async throws {
        try await runner.run { try $0.removeAll() }
    }

    /// Whether `key` has a live entry whose data file is present with its recorded size (its
    /// bytes are not read); an entry whose file is gone is removed.
    public func containsData(forKey key: String) async throws -> Bool {
        try await runner.run { try $0.contains(key: key) }
    }

    /// The number of entries.
    public func count() async throws -> Int { try await runner.run { try $0.totals().count } }

    /// The total bytes of all entries, as recorded in the index.
    public func totalBytes() async throws -> Int { try await runner.run { try $0.totals().bytes } }

    /// Totals and the oldest and newest entries.
    ///
    /// ```swift
    /// let stats = try await cache.statistics()
    /// print(stats.count, stats.bytes, stats.oldest?.storedAt as Any)
    /// ```
    public func statistics() async throws -> DiskCacheStatistics { try await runner.run { try $0.statistics() } }

    /// Evicts least recently used entries down to `maxSize × trimRatio` when the cache is over
    /// `maxSize` (writes already do this; call it after lowering `maxSize`). Returns how many went.
    @discardableResult
    public func trimToBudget() async throws -> Int { try await runner.run { try $0.trimToBudget() } }

    /// Removes every expired entry now, in short batches that let other operations run between
    /// them; returns how many were removed.
    @discardableResult
    public func sweepExpired() async throws -> Int { try await runner.sweepExpired() }

    /// Moves the entries of another WebImage cache directory into this one and removes it;
    /// returns how many entries moved.
    @discardableResult
    public func migrate(from directory: URL) async throws -> Int {
        try await runner.run { try $0.migrate(from: directory) }
    }

    /// Removes data files with no index row and stale temporary files (crash leftovers); runs on
    /// open. Returns how many files were removed.
    @discardableResult
    public func removeLeftovers() async throws -> Int { try await runner.run { try $0.removeLeftovers() } }
}

/// Runs ``DiskStore`` work on a serial dispatch queue and resumes the caller when it is done.
struct DiskQueue: Sendable {
    let store: DiskStore
    let queue: DispatchQueue
    static let sweepBatch = 1000

    func run<T: Sendable>(evenIfClosed: Bool = false, _ body: @escaping @Sendable (DiskStore) throws -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try Self.wrapped { try checked(evenIfClosed) { try body(store) } } })
            }
        }
    }

    /// Runs `body` on the queue later; a failure is logged.
    func post(_ what: String, _ body: @escaping @Sendable (DiskStore) throws -> Void) {
        queue.async {
            do {
                try checked(false) { try body(store) }
            } catch {
                store.configuration.logger.warning("disk cache: \(what) failed: \(error)")
            }
        }
    }

    private func checked<T>(_ evenIfClosed: Bool, _ body: () throws -> T) throws -> T {
        if store.isClosed, !evenIfClosed {
            throw WebImageError(.cacheIO, "the disk cache at \(store.configuration.directory.path) is closed")
        }
        return try body()
    }

    /// Starts `body` on the queue now; the task finishes when it has run.
    func enqueue(_ body: @escaping @Sendable (DiskStore) throws -> Void) -> Task<Void, any Error> {
        let (stream, continuation) = AsyncStream<Result<Void, any Error>>.makeStream()
        queue.async {
            continuation.yield(Result { try Self.wrapped { try checked(false) { try body(store) } } })
            continuation.finish()
        }
        return Task {
            for await result in stream { try result.get() }
        }
    }

    func sweepExpired() async throws -> Int {
        var total = 0
        while true {
            let removed = try await run { try $0.sweepExpiredBatch(limit: Self.sweepBatch) }
            total += removed
            if removed < Self.sweepBatch { return total }
        }
    }

    private static func wrapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError(.cacheIO, "disk cache operation failed", underlying: error)
        }
    }
}
