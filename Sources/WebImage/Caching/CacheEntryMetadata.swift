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
/// try await cache.store(.data(bytes), forKey: url.absoluteString, cacheType: .disk, metadata: metadata)
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
    public var http: HTTPCacheHeaders
    /// Free-form bytes the caller attaches to the entry (SDWebImage's `sd_extendedObject`,
    /// serialised however the caller likes).
    public var extendedData: Data?

    /// Creates metadata; the bookkeeping fields default to zero and are set by the cache on store.
    public init(
        originalURL: URL? = nil,
        contentType: String? = nil,
        http: HTTPCacheHeaders = HTTPCacheHeaders(),
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

/// The response headers that decide whether cached bytes are still fresh and how to revalidate
/// them, kept verbatim as the server sent them (`nil` when absent).
///
/// ```swift
/// let headers = HTTPCacheHeaders(etag: "\"v2\"", cacheControl: "max-age=600")
/// ```
public struct HTTPCacheHeaders: Hashable, Sendable {
    /// `ETag`, for `If-None-Match`.
    public var etag: String?
    /// `Last-Modified`, for `If-Modified-Since`.
    public var lastModified: String?
    /// `Cache-Control` (`max-age`, `no-cache`, `immutable`, …).
    public var cacheControl: String?
    /// `Expires`.
    public var expires: String?
    /// `Date`: when the response was generated.
    public var date: String?
    /// `Age`: seconds the response had already spent in shared caches.
    public var age: Int?

    /// Creates a set of headers; every field defaults to absent.
    public init(
        etag: String? = nil, lastModified: String? = nil, cacheControl: String? = nil,
        expires: String? = nil, date: String? = nil, age: Int? = nil
    ) {
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expires = expires
        self.date = date
        self.age = age
    }

    /// Whether no header is present.
    public var isEmpty: Bool {
        etag == nil && lastModified == nil && cacheControl == nil && expires == nil && date == nil && age == nil
    }
}
