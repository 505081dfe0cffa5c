import Crypto
import Foundation
import WebImage
import WebImageDiskCache

/// An original's bytes and the validators its result's ETag is made from.
struct SourceBytes: Sendable {
    var data: Data
    /// The origin's ETag, else its Last-Modified, else a digest of the bytes.
    var validator: String
    /// The origin's (or the file's) `Last-Modified`.
    var lastModified: String?
    /// The origin's validators and freshness headers (none for a local file).
    var http = HTTPCacheMetadata()
    /// When the bytes, or the 304 that last confirmed them, arrived.
    var receivedAt = Date.distantPast

    /// What it costs in the service's memory cache of originals: its bytes.
    var memoryCost: Int { data.count }

    /// When the origin's `Cache-Control` (`s-maxage` first: the service is a shared cache) or
    /// `Expires` says the bytes stop being fresh; nil when it says nothing (fresh until evicted).
    var freshUntil: Date? { http.freshUntil(receivedAt: receivedAt, shared: true) }

    /// Whether the bytes may be used at `now` without asking the origin.
    func isFresh(at now: Date) -> Bool { freshUntil.map { now < $0 } ?? true }
}

/// Fetches originals: `http(s)` through the library's loaders (the byte limit and the URL policy
/// applied on every hop) with the originals kept in memory and on disk; `local://` from the
/// root, with the same byte limit. Concurrent fetches of one URL share one job (the core's
/// ``JobRegistry``) until its bytes are in the memory cache, so a source is downloaded once
/// however many results are made of it. A source that failed permanently (the library's
/// ``FailedURLBlockingPolicy``: a 404, not a 5xx) is not asked again for ``failures``' time to live.
///
/// HTTP freshness: a remote original is used as it is while its origin's `Cache-Control` or
/// `Expires` says it is fresh; once stale, it is revalidated (`If-None-Match` /
/// `If-Modified-Since`): a 304 keeps it and restarts its freshness, new bytes replace it (and,
/// when their validator differs, ``onReplaced`` drops the results made of the old ones), and a
/// failure answers with the stale bytes unless the origin said `must-revalidate`,
/// `proxy-revalidate` or `no-cache` (stale-if-error).
final class SourceFetcher: Sendable {
    let loaders: any ImageLoading
    let memory: CostLRU<HashedKey, SourceBytes>
    /// The data tier behind memory (disk, disk and Redis, Redis, or none).
    let disk: (any ImageDataCaching)?
    let limits: ImageServerLimits
    let metrics: ServiceMetrics
    let writes: BackgroundWrites
    /// Remote sources that failed permanently, with their failure.
    let failures: FailedURLCache<ContinuousClock>
    /// The wall clock freshness is judged by.
    let clock: any CacheClock
    /// Called once when a revalidation brings bytes with another validator.
    let onReplaced: @Sendable (URL) async -> Void
    private let jobs = JobRegistry<String, SourceBytes>()

    init(
        loaders: any ImageLoading, memory: CostLRU<HashedKey, SourceBytes>, disk: (any ImageDataCaching)?, limits: ImageServerLimits,
        metrics: ServiceMetrics, writes: BackgroundWrites, failedSourceTTL: Duration, clock: any CacheClock = SystemCacheClock(),
        onReplaced: @escaping @Sendable (URL) async -> Void = { _ in }
    ) {
        self.clock = clock
        self.onReplaced = onReplaced
        failures = FailedURLCache(clock: ContinuousClock(), timeToLive: failedSourceTTL)
        self.writes = writes
        self.loaders = loaders
        self.memory = memory
        self.disk = disk
        self.limits = limits
        self.metrics = metrics
    }

    func fetch(_ source: ImageSource) async throws -> SourceBytes {
        switch source {
        case .remote(let url):
            let key = CacheKeys.serviceSource(url)
            if let cached = memory.value(forKey: key), cached.isFresh(at: clock.now()) {
                metrics.hit("source")
                return cached
            }
            if let failure = failures.recordedFailure(url) {
                metrics.failedSourceHits.increment()
                throw failure
            }
            do {
                return try await jobs.value(for: key) { try await self.fetchRemote(url, key: key) }
            } catch let error as WebImageError {
                if FailedURLBlockingPolicy.standard.shouldBlock(error) { failures.recordFailure(url, error: error) }
                throw error
            }
        case .local(let file):
            return try readLocal(file)
        }
    }

    /// The source's bytes when they are at hand without a download: a fresh remote original in
    /// memory or on disk, or a local file.
    func cached(_ source: ImageSource) async -> SourceBytes? {
        switch source {
        case .remote(let url):
            guard let bytes = await stored(key: CacheKeys.serviceSource(url))?.bytes, bytes.isFresh(at: clock.now()) else { return nil }
            return bytes
        case .local(let file):
            return try? readLocal(file)
        }
    }

    /// A remote original's bytes as the origin sent them: its validator is the ETag, else the
    /// Last-Modified, else a digest of the bytes.
    private static func bytes(_ data: Data, http: HTTPCacheMetadata, receivedAt: Date) -> SourceBytes {
        SourceBytes(
            data: data, validator: http.etag ?? http.lastModified ?? digest(data), lastModified: http.lastModified, http: http,
            receivedAt: receivedAt)
    }

    /// The remote original under `key` in memory, else on disk (`fromDisk`), else nil.
    private func stored(key: String) async -> (bytes: SourceBytes, fromDisk: Bool)? {
        if let bytes = memory.value(forKey: key) { return (bytes, false) }
        guard let disk, let entry = try? await disk.entry(forKey: key) else { return nil }
        return (Self.bytes(entry.data, http: entry.metadata.http, receivedAt: entry.metadata.modifiedAt), true)
    }

    private func fetchRemote(_ url: URL, key: String) async throws -> SourceBytes {
        // Looked up again inside the shared job: another job may have stored it since.
        guard let (source, fromDisk) = await stored(key: key) else { return try await download(url, key: key, stale: nil) }
        guard source.isFresh(at: clock.now()) else { return try await download(url, key: key, stale: source) }
        metrics.hit("source")
        if fromDisk { memory.set(source, forKey: key, cost: source.memoryCost) }
        return source
    }

    /// Downloads `url`, revalidating the `stale` bytes when there are some (see the type's notes).
    private func download(_ url: URL, key: String, stale: SourceBytes?) async throws -> SourceBytes {
        var request = ImageLoad.Request(url: url, priority: .high)
        request.totalTimeout = limits.requestTimeout
        if let stale, stale.http.hasValidators {
            request.revalidation = stale.http
            metrics.sourceRevalidations.increment()
        }
        metrics.originRequests.increment()
        let result: ImageLoad.Result
        do {
            result = try await loaders.load(request).result()
        } catch let error as WebImageError where error.code == .cacheNotModified {
            guard let stale, let response = error.downloadDetails?.response else { throw error }
            return keep(stale, confirmedBy: response.cacheMetadata, key: key)
        } catch {
            guard let stale, stale.http.allowsStaleOnError(shared: true), !Task.isCancelled,
                (error as? WebImageError)?.code != .cancelled
            else { throw error }
            metrics.staleSourceAnswers.increment()
            return stale
        }
        metrics.sourceBytes.increment(by: result.data.count)
        let http = result.response.cacheMetadata
        if let disk {
            var metadata = CacheEntryMetadata(originalURL: url, contentType: result.response.contentType)
            metadata.http = http
            let data = result.data
            writes.submit { [metadata] in try await disk.setData(data, forKey: key, metadata: metadata) }
        }
        let source = Self.bytes(result.data, http: http, receivedAt: clock.now())
        memory.set(source, forKey: key, cost: source.memoryCost)
        if let stale, stale.validator != source.validator { await onReplaced(url) }
        return source
    }

    /// The `stale` bytes a 304 confirmed: its headers merged in, fresh again from now, in memory
    /// and on disk.
    private func keep(_ stale: SourceBytes, confirmedBy http: HTTPCacheMetadata, key: String) -> SourceBytes {
        var kept = stale
        kept.http = stale.http.updated(with: http)
        kept.receivedAt = clock.now()
        memory.set(kept, forKey: key, cost: kept.memoryCost)
        if let disk { writes.submit { try await disk.recordRevalidation(forKey: key, http: http) } }
        return kept
    }

    private func readLocal(_ file: URL) throws -> SourceBytes {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        } catch {
            throw WebImageError(.sourceNotFound, "no local source \(file.lastPathComponent)")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw WebImageError(.sourceNotFound, "the local source \(file.lastPathComponent) is not a file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? (attributes[.size] as? Int) ?? 0
        guard size <= limits.maxSourceBytes else {
            throw WebImageError(.tooLarge, "the source is \(size) bytes, over the limit of \(limits.maxSourceBytes)")
        }
        guard let data = FileManager.default.contents(atPath: file.path), data.count <= limits.maxSourceBytes else {
            throw WebImageError(.fileUnreadable, "the local source \(file.lastPathComponent) cannot be read")
        }
        metrics.sourceBytes.increment(by: data.count)
        let modified = (attributes[.modificationDate] as? Date).map(HTTPDate.format)
        return SourceBytes(data: data, validator: Self.digest(data), lastModified: modified)
    }

    /// A short hex digest of `data`.
    static func digest(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).prefix(16).hexString
    }
}
