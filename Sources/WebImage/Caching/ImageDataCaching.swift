public import Foundation

/// The data side of caching: encoded bytes with their metadata, on a disk or any other store
/// that may be slow (Nuke's `DataCaching`, SDWebImage's `SDDiskCache`).
///
/// Every requirement is `async`: implementations do their I/O off the caller's thread.
/// `WebImageDiskCache`'s `DiskCache` adopts it; an ``ImageCache`` composes any number of data tiers
/// behind its memory tiers (``ImageMemoryCaching``) and decodes their hits.
/// `ImageDataCachingConformance` in `WebImageTesting` checks an implementation.
///
/// The cache sets the bookkeeping fields of ``CacheEntryMetadata`` (``CacheEntryMetadata/byteSize``
/// and the dates) itself. The empty key is not a key: ``setData(_:forKey:metadata:)`` throws
/// ``WebImageError/Code/invalidCacheKey`` for it.
///
/// ```swift
/// let disk: any ImageDataCaching = try DiskCache(namespace: "avatars")
/// try await disk.setData(bytes, forKey: key, metadata: CacheEntryMetadata(originalURL: url))
/// if let (data, metadata) = try await disk.entry(forKey: key) { print(data.count, metadata.http.etag ?? "-") }
/// ```
public protocol ImageDataCaching: Sendable {
    /// The bytes and metadata stored for `key`, marking the entry recently used; `nil` on a miss.
    func entry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)?

    /// Stores `data` for `key` with the caller's `metadata` (provenance, HTTP headers, extended
    /// data), replacing any older entry; the empty key throws ``WebImageError/Code/invalidCacheKey``.
    func setData(_ data: Data, forKey key: String, metadata: CacheEntryMetadata?) async throws

    /// Removes `key`'s entry.
    func removeData(forKey key: String) async throws

    /// Removes every entry.
    func removeAllData() async throws

    /// Whether `key` has an entry that can be read back (its bytes are not read).
    func containsData(forKey key: String) async throws -> Bool

    /// The number of entries.
    func count() async throws -> Int

    /// The total bytes of all entries.
    func totalBytes() async throws -> Int

    /// Records a `304 Not Modified` answer to a revalidation of `key`: the 304's validators and
    /// freshness headers replace the stored ones (absent ones are kept,
    /// ``HTTPCacheMetadata/updated(with:)``) and the entry's modification date restarts. Returns
    /// whether an entry was updated.
    @discardableResult
    func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool
}

extension ImageDataCaching {
    /// The bytes stored for `key`, marking the entry recently used; `nil` on a miss.
    public func data(forKey key: String) async throws -> Data? {
        try await entry(forKey: key)?.data
    }
}
