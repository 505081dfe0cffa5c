extension WebImageError.Code {
    /// The request's `fromCacheOnly` option is set and no cache holds the image.
    public static let notCached = WebImageError.Code(rawValue: "notCached")
    /// The manager's should-download hook refused to download the URL.
    public static let downloadDisallowed = WebImageError.Code(rawValue: "downloadDisallowed")
    /// The cache key is empty: nothing can be cached or looked up under it.
    public static let invalidCacheKey = WebImageError.Code(rawValue: "invalidCacheKey")
    /// A transformer threw; the message names it and the cause is its error.
    public static let transformFailed = WebImageError.Code(rawValue: "transformFailed")
    /// A ``WorkLimiter``'s queue is full (`webimage serve` answers `503` with `Retry-After`).
    public static let overloaded = WebImageError.Code(rawValue: "overloaded")
    /// The manager was invalidated (``ImageManager/invalidate()``) and takes no more requests.
    public static let invalidated = WebImageError.Code(rawValue: "invalidated")
}
