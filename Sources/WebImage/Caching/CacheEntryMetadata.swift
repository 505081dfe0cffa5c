public import Foundation

/// What a cache keeps about one entry besides its bytes: provenance, bookkeeping dates, HTTP
/// validators and freshness, and an opaque extension blob.
///
/// Callers fill ``originalURL``, ``contentType``, ``http`` and ``extendedData`` when storing;
/// the cache sets ``byteSize``, ``createdAt``, ``modifiedAt`` and ``lastAccessAt`` itself (values
/// passed for those are ignored).
///
/// ```swift
/// var metadata = CacheEntryMetadata(originalURL: url, contentType: "image/png")
/// metadata.http.etag = "\"abc\""
/// try await cache.store(.data(bytes, metadata: metadata), forKey: url.absoluteString, cacheType: .disk)
/// ```
public struct CacheEntryMetadata: Hashable, Sendable {
    /// The URL the bytes were loaded from, if any.
    public var originalURL: URL?
    /// The MIME type the server declared (`image/webp`, …), if known.
    public var contentType: String?
    /// Bytes of encoded data stored (set by the cache).
    public var byteSize: Int
    /// When the entry was first stored under this key (set by the cache; kept when overwritten).
    public var createdAt: Date
    /// When the entry's bytes were last written (set by the cache; the "stored-at" date).
    public var modifiedAt: Date
    /// When the entry was last read or written (set by the cache).
    public var lastAccessAt: Date
    /// The HTTP validators and freshness headers of the response the bytes came from.
    public var http: HTTPCacheMetadata
    /// Free-form bytes the caller attaches to the entry (SDWebImage's `sd_extendedObject`,
    /// serialised however the caller likes).
    public var extendedData: Data?

    /// Creates metadata; the bookkeeping fields default to zero and are set by the cache on store.
    public init(
        originalURL: URL? = nil,
        contentType: String? = nil,
        http: HTTPCacheMetadata = HTTPCacheMetadata(),
        extendedData: Data? = nil,
        byteSize: Int = 0,
        createdAt: Date = Date(timeIntervalSince1970: 0),
        modifiedAt: Date = Date(timeIntervalSince1970: 0),
        lastAccessAt: Date = Date(timeIntervalSince1970: 0)
    ) {
        self.originalURL = originalURL
        self.contentType = contentType
        self.http = http
        self.extendedData = extendedData
        self.byteSize = byteSize
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.lastAccessAt = lastAccessAt
    }
}
