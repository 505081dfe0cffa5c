extension HTTPCacheMetadata {
    /// These headers updated with those `newer` carries (RFC 9111 §4.3.4): each header present in
    /// `newer` replaces this one; absent ones are kept. Data tiers apply it when a revalidation is
    /// answered 304 (``ImageDataCaching/recordRevalidation(forKey:http:)``).
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
