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

    /// What it costs in the service's memory cache of originals: its bytes.
    var memoryCost: Int { data.count }
}

/// Fetches originals: `http(s)` through the library's loaders (the byte limit and the URL policy
/// applied on every hop) with the originals kept in memory and on disk; `local://` from the
/// root, with the same byte limit. Concurrent fetches of one URL share one job (the core's
/// ``JobRegistry``) until its bytes are in the memory cache, so a source is downloaded once
/// however many results are made of it. A source that failed permanently (the library's
/// ``FailedURLBlockingPolicy``: a 404, not a 5xx) is not asked again for ``failures``' time to live.
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
    private let jobs = JobRegistry<String, SourceBytes>()

    init(
        loaders: any ImageLoading, memory: CostLRU<HashedKey, SourceBytes>, disk: (any ImageDataCaching)?, limits: ImageServerLimits,
        metrics: ServiceMetrics, writes: BackgroundWrites, failedSourceTTL: Duration
    ) {
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
            if let cached = memory.value(forKey: key) {
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

    /// The source's bytes when they are at hand without a download: a remote original in memory
    /// or on disk, or a local file.
    func cached(_ source: ImageSource) async -> SourceBytes? {
        switch source {
        case .remote(let url):
            return await stored(key: CacheKeys.serviceSource(url))?.bytes
        case .local(let file):
            return try? readLocal(file)
        }
    }

    /// A remote original's bytes as the origin sent them: its validator is the ETag, else the
    /// Last-Modified, else a digest of the bytes.
    private static func bytes(_ data: Data, http: HTTPCacheMetadata) -> SourceBytes {
        SourceBytes(data: data, validator: http.etag ?? http.lastModified ?? digest(data), lastModified: http.lastModified)
    }

    /// The remote original under `key` in memory, else on disk (`fromDisk`), else nil.
    private func stored(key: String) async -> (bytes: SourceBytes, fromDisk: Bool)? {
        if let bytes = memory.value(forKey: key) { return (bytes, false) }
        guard let disk, let entry = try? await disk.entry(forKey: key) else { return nil }
        return (Self.bytes(entry.data, http: entry.metadata.http), true)
    }

    private func fetchRemote(_ url: URL, key: String) async throws -> SourceBytes {
        // Looked up again inside the shared job: another job may have stored it since.
        if let (source, fromDisk) = await stored(key: key) {
            metrics.hit("source")
            if fromDisk { memory.set(source, forKey: key, cost: source.memoryCost) }
            return source
        }
        var request = ImageLoad.Request(url: url, priority: .high)
        request.totalTimeout = limits.requestTimeout
        metrics.originRequests.increment()
        let result = try await loaders.load(request).result()
        metrics.sourceBytes.increment(by: result.data.count)
        let http = result.response.cacheMetadata
        if let disk {
            var metadata = CacheEntryMetadata(originalURL: url, contentType: result.response.contentType)
            metadata.http = http
            let data = result.data
            writes.submit { [metadata] in try await disk.setData(data, forKey: key, metadata: metadata) }
        }
        let source = Self.bytes(result.data, http: http)
        memory.set(source, forKey: key, cost: source.memoryCost)
        return source
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
