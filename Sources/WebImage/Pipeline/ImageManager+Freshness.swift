import Foundation

/// HTTP freshness of disk hits (RFC 9111): a fresh entry is used without a request; a stale one is
/// revalidated with its validators first (a 304 keeps it), and answers a failed revalidation only
/// when its headers allow (``HTTPCacheMetadata/allowsStaleOnError(shared:)``). Memory hits carry
/// no headers and are used as they are, as a browser's in-page image cache does.
extension ImageManager {
    /// The stored headers of a disk hit that is no longer fresh; nil for a fresh hit, a memory hit
    /// or one without metadata.
    func staleHTTP(_ hit: CachedImage) -> HTTPCacheMetadata? {
        guard hit.cacheType == .disk, let metadata = hit.metadata, isStale(metadata) else { return nil }
        return metadata.http
    }

    /// Whether a data tier's entry is no longer fresh (a stale hit is not put in memory, where
    /// it would be answered without its revalidation).
    func isStale(_ metadata: CacheEntryMetadata?) -> Bool {
        guard let metadata else { return false }
        return !metadata.isFresh(at: configuration.freshnessClock.now())
    }
}
