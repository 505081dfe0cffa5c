/// A cache that can record a successful HTTP revalidation of an entry: the server answered
/// `304 Not Modified`, so the stored bytes stay and their validators and dates are refreshed.
///
/// The manager calls it on the original key's cache after a `refreshCached` request is answered
/// 304 (RFC 9111 §4.3.4: the stored headers are updated with those of the 304). ``TieredCache``
/// forwards it to every tier that conforms; `WebImageDiskCache`'s `DiskCache` conforms.
///
/// ```swift
/// if let cache = cache as? any CacheRevalidationRecording {
///     try await cache.recordRevalidation(forKey: key, http: HTTPCacheMetadata(headers: response.headers))
/// }
/// ```
public protocol CacheRevalidationRecording: Sendable {
    /// Merges `http` into `key`'s stored HTTP metadata (each header the 304 carries replaces the
    /// stored one; absent ones are kept) and restarts the entry's modification date. Returns
    /// whether an entry was updated.
    @discardableResult
    func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool
}

extension HTTPCacheMetadata {
    /// These headers updated with those `newer` carries (RFC 9111 §4.3.4): each header present in
    /// `newer` replaces this one; absent ones are kept.
    ///
    /// ```swift
    /// let refreshed = stored.updated(with: HTTPCacheMetadata(headers: notModified.headers))
    /// ```
    public func updated(with newer: HTTPCacheMetadata) -> HTTPCacheMetadata {
        HTTPCacheMetadata(
            etag: newer.etag ?? etag, lastModified: newer.lastModified ?? lastModified,
            cacheControl: newer.cacheControl ?? cacheControl, expires: newer.expires ?? expires,
            date: newer.date ?? date, age: newer.age ?? age)
    }
}

extension TieredCache: CacheRevalidationRecording {
    /// Records the revalidation in every tier that can; returns whether any tier updated an entry.
    @discardableResult
    public func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool {
        var updated = false
        for case let cache as any CacheRevalidationRecording in caches {
            if try await cache.recordRevalidation(forKey: key, http: http) { updated = true }
        }
        return updated
    }
}
