public import Foundation
import Synchronization
public import WebImage

/// Blocked failed URLs kept in a disk cache's index, so that a URL that failed permanently stays
/// blocked in the next process too (`webimage fetch` run after run), until its time to live ends,
/// a success clears it, or ``removeAll()``.
///
/// Answers ``isBlocked(_:)`` from memory (loaded when the store is made); each change is written to
/// the index in the background, on the cache's queue, so it is on disk once the cache is closed.
/// Like ``FailedURLCache`` it does not judge failures: the manager records only those its
/// ``FailedURLBlockingPolicy`` (or hook) says should block. Times are wall-clock, from the cache's
/// ``DiskCacheConfiguration/clock``.
///
/// ```swift
/// let disk = try DiskCache(namespace: "avatars")
/// var configuration = ImageManager.Configuration(imageCache: ImageCache(memory: [MemoryCache()], data: [disk]), loader: loaders, coders: coders)
/// configuration.failedURLs = try await disk.failedURLStore(timeToLive: 3600)
/// ```
public final class DiskFailedURLStore: FailedURLRecording {
    /// Seconds a failure blocks its URL; `nil`: until cleared.
    public let timeToLive: TimeInterval?
    private let runner: DiskQueue
    /// Blocked URLs (absolute strings) and when each is blocked until (seconds since 1970;
    /// `infinity`: until cleared).
    private let entries: Mutex<[String: Double]>

    init(runner: DiskQueue, timeToLive: TimeInterval?, entries: [String: Double]) {
        self.runner = runner
        self.timeToLive = timeToLive
        self.entries = Mutex(entries)
    }

    private var now: Double { runner.store.configuration.clock.now().timeIntervalSince1970 }

    /// Whether `url` is blocked now; an expired entry is dropped.
    public func isBlocked(_ url: URL) -> Bool {
        let key = url.absoluteString
        let now = now
        let expired: Bool? = entries.withLock { entries in
            guard let until = entries[key] else { return nil }
            if now < until { return false }
            entries[key] = nil
            return true
        }
        guard let expired else { return false }
        if expired { runner.post("forgetting an expired blocked URL") { try $0.unblock(url: key) } }
        return !expired
    }

    /// Blocks `url` for ``timeToLive`` and records it in the index.
    public func recordFailure(_ url: URL, error: WebImageError) {
        let key = url.absoluteString
        let until = timeToLive.map { now + $0 } ?? .infinity
        entries.withLock { $0[key] = until }
        runner.post("recording a blocked URL") { try $0.block(url: key, until: until, error: error) }
    }

    /// Forgets `url` after a success.
    public func recordSuccess(_ url: URL) {
        let key = url.absoluteString
        guard entries.withLock({ $0.removeValue(forKey: key) }) != nil else { return }
        runner.post("forgetting a blocked URL") { try $0.unblock(url: key) }
    }

    /// How many URLs are blocked (expired ones included until looked up).
    public var count: Int { entries.withLock { $0.count } }

    /// Forgets every blocked URL, here and in the index (other stores of the same directory keep
    /// what they loaded until they are made again). Returns how many the index held.
    @discardableResult
    public func removeAll() async throws -> Int {
        entries.withLock { $0.removeAll() }
        return try await runner.run { try $0.unblockAll() }
    }
}

extension DiskCache {
    /// A failed-URL store kept in this cache's index, loaded now (expired entries are removed).
    /// Give it to ``ImageManager/Configuration/failedURLs`` so blocked URLs survive the process.
    ///
    /// ```swift
    /// configuration.failedURLs = try await disk.failedURLStore(timeToLive: 3600)   // one hour
    /// ```
    /// - Parameter timeToLive: seconds a failure blocks its URL; `nil`: until cleared.
    public func failedURLStore(timeToLive: TimeInterval?) async throws -> DiskFailedURLStore {
        let entries = try await runner.run { try $0.blockedURLs() }
        return DiskFailedURLStore(runner: runner, timeToLive: timeToLive, entries: entries)
    }

    /// Forgets every blocked failed URL kept in the index (`webimage cache clear` does this);
    /// returns how many there were.
    @discardableResult
    public func removeAllBlockedURLs() async throws -> Int {
        try await runner.run { try $0.unblockAll() }
    }
}
