extension WebImageError.Code {
    /// The request's `fromCacheOnly` option is set and no cache holds the image.
    public static let notCached = WebImageError.Code(rawValue: "notCached")
    /// The manager's should-download hook refused to download the URL.
    public static let downloadDisallowed = WebImageError.Code(rawValue: "downloadDisallowed")
}
