/// Which load failures block a URL from being tried again: the one failed-URL rule of WebImage.
///
/// Loaders answer `shouldBlockFailedURL` with it (``ImageLoading``'s default, the file loader's
/// and the HTTP loader's `blockingPolicy`); the manager records what it says should block in its
/// ``FailedURLRecording`` store for that store's time to live, unless the manager's own
/// `shouldBlockFailedURL` hook decides instead. The stores themselves never classify.
///
/// The standard policy blocks permanent failures: an invalid URL, bytes that are not an image,
/// and HTTP statuses that will not change on retry (400, 403, 404, 405, 410, 414, 451). It never
/// blocks 5xx or any other status (401, 408, 429, …), timeouts, cancellation, network failures (no
/// connection, DNS, refused or lost connections, TLS), a `304` or a size limit.
///
/// SDWebImage blocks no HTTP status at all (its downloader blocks an invalid URL, bad image data
/// and URL-loading errors other than the transient ones); WebImage adds the permanent 4xx so that
/// a 404 is not fetched again on every request.
///
/// ```swift
/// var policy = FailedURLBlockingPolicy.standard
/// policy.blockedStatusCodes.insert(401)
/// var http = HTTPImageLoaderConfiguration()
/// http.blockingPolicy = policy
/// ```
public struct FailedURLBlockingPolicy: Sendable, Hashable {
    /// Error codes that always block.
    public var blockedCodes: Set<WebImageError.Code>
    /// HTTP statuses that block when a load fails with ``WebImageError/Code/invalidDownloadStatusCode``.
    public var blockedStatusCodes: Set<Int>

    /// A policy from explicit sets.
    public init(blockedCodes: Set<WebImageError.Code>, blockedStatusCodes: Set<Int>) {
        self.blockedCodes = blockedCodes
        self.blockedStatusCodes = blockedStatusCodes
    }

    /// Blocks invalid URLs, bad image data and permanent HTTP statuses.
    public static let standard = FailedURLBlockingPolicy(
        blockedCodes: [.invalidURL, .badImageData],
        blockedStatusCodes: [400, 403, 404, 405, 410, 414, 451])

    /// Never blocks.
    public static let never = FailedURLBlockingPolicy(blockedCodes: [], blockedStatusCodes: [])

    /// Whether `error` blocks its URL. Errors that are not ``WebImageError`` never do.
    public func shouldBlock(_ error: any Error) -> Bool {
        guard let error = error as? WebImageError else { return false }
        if blockedCodes.contains(error.code) { return true }
        if error.code == .invalidDownloadStatusCode, let status = error.statusCode {
            return blockedStatusCodes.contains(status)
        }
        return false
    }
}
