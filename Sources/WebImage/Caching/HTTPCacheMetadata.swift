import Foundation

/// The HTTP validators and freshness headers of a response, as a disk cache stores them.
///
/// Handed back with every response (``ImageLoad/Response/cacheMetadata``) and handed in to
/// revalidate a cached entry (``ImageLoad/Request/revalidation``): the HTTP loader then sends
/// `If-None-Match` / `If-Modified-Since` and reports `304` as ``WebImageError/Code/cacheNotModified``.
/// Values are the raw header values; nothing is parsed but `Age`.
///
/// ```swift
/// var request = ImageLoad.Request(url: url)
/// request.revalidation = storedEntry.httpMetadata   // from the disk cache
/// ```
public struct HTTPCacheMetadata: Sendable, Hashable, Codable {
    /// The `ETag` header: an opaque validator.
    public var etag: String?
    /// The `Last-Modified` header: a date validator.
    public var lastModified: String?
    /// The `Cache-Control` header.
    public var cacheControl: String?
    /// The `Expires` header.
    public var expires: String?
    /// The `Date` header: when the origin produced the response.
    public var date: String?
    /// The `Age` header in seconds, when present and well formed.
    public var age: Int?

    /// Metadata from explicit values.
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

    /// Metadata read from response headers.
    public init(headers: ImageLoad.Headers) {
        self.init(
            etag: headers["ETag"], lastModified: headers["Last-Modified"],
            cacheControl: headers["Cache-Control"], expires: headers["Expires"], date: headers["Date"],
            age: headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
    }

    /// Whether there is a validator to revalidate with (an ETag or a Last-Modified date).
    public var hasValidators: Bool { etag != nil || lastModified != nil }

    /// Whether no header is recorded.
    public var isEmpty: Bool {
        etag == nil && lastModified == nil && cacheControl == nil && expires == nil && date == nil && age == nil
    }

    /// The conditional request headers these validators produce.
    public var conditionalHeaders: ImageLoad.Headers {
        var headers = ImageLoad.Headers()
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}
