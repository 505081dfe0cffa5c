public import Foundation
public import Logging
public import WebImage

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Settings of an ``HTTPImageLoader`` (SDWebImage's `SDWebImageDownloaderConfig`); every field is
/// defaulted and each request may override the per-request ones (``ImageLoadRequest``).
///
/// ```swift
/// var configuration = HTTPImageLoaderConfiguration()
/// configuration.maximumConcurrentDownloads = 4
/// configuration.executionOrder = .lifo
/// configuration.headers["X-Client"] = "gallery"
/// let loader = HTTPImageLoader(configuration: configuration)
/// defer { Task { try await loader.shutdown() } }
/// ```
///
/// Cookies: AsyncHTTPClient keeps no cookie store. A request with
/// ``ImageLoadRequest/handlesCookies`` sends the `Cookie` header that ``cookieStorage`` holds for
/// its URL and stores the response's `Set-Cookie` fields there (those of redirect responses too,
/// each for its own URL). Cookies go with the first request only: AsyncHTTPClient carries the
/// header along same-origin redirects and drops it on cross-origin ones, and a cookie set by one
/// redirect is not sent on the next hop of the same chain. Other requests send and store none;
/// their `Set-Cookie` fields are still in ``ImageLoadResponse/headers``.
public struct HTTPImageLoaderConfiguration: Sendable {
    /// The version of WebImage that the default `User-Agent` names.
    public static let webImageVersion = "0.1.0"

    /// `WebImage/<version> (<platform>; Swift)`.
    public static var defaultUserAgent: String {
        #if os(Linux)
            let platform = "Linux"
        #elseif os(macOS)
            let platform = "macOS"
        #else
            let platform = "Apple"
        #endif
        return "WebImage/\(webImageVersion) (\(platform); Swift)"
    }

    /// The default `Accept` value: WebP and APNG first, any image, anything.
    public static let defaultAccept = "image/webp,image/apng,image/*,*/*;q=0.8"

    /// How many downloads run at once (default 6).
    public var maximumConcurrentDownloads = 6
    /// Which waiting download of equal priority starts first (default FIFO).
    public var executionOrder = DownloadExecutionOrder.fifo
    /// Time allowed to connect and to receive the response head (default 15 s).
    public var timeout = Duration.seconds(15)
    /// Time allowed between two reads of the response, the head included (default 15 s).
    public var readTimeout = Duration.seconds(15)
    /// The largest body accepted, checked against `Content-Length` and while streaming (default 100 MB).
    public var maximumResponseBytes = 100 * 1024 * 1024
    /// Redirects followed before failing (default 10).
    public var maximumRedirects = 10
    /// Headers sent with every request: `Accept` and `User-Agent` by default.
    public var headers: ImageLoadHeaders = ["Accept": defaultAccept, "User-Agent": defaultUserAgent]
    /// Basic-auth credentials sent with every request that carries no `Authorization` header.
    public var credential: ImageLoadCredential?
    /// Asked when a response is `401` with the URL and its `WWW-Authenticate` value; the request is
    /// sent once more with the credential it returns (nil gives up and keeps the `401`).
    public var credentialProvider: (@Sendable (URL, String?) async -> ImageLoadCredential?)?
    /// Accept any TLS certificate (self-signed, expired, wrong host) for every request. Off by
    /// default; for tests and closed networks only. One request can opt in alone with
    /// ``ImageLoadRequest/allowsInvalidCertificates``.
    public var acceptsInvalidCertificates = false
    /// Report progress at most every this fraction of the total (default 0: every chunk); the
    /// last progress always comes.
    public var minimumProgressInterval = 0.0
    /// Statuses treated as success (default `200..<300`).
    public var acceptableStatusCodes = Set(200..<300)
    /// Media types accepted, lowercased without parameters (default nil: any).
    public var acceptableContentTypes: Set<String>?
    /// Rewrites every outgoing request (a request's own modifier takes precedence).
    public var requestModifier: ImageRequestModifier?
    /// Rewrites every response head (a request's own modifier takes precedence).
    public var responseModifier: ImageResponseModifier?
    /// Transforms every body (a request's own decryptor takes precedence).
    public var decryptor: ImageDataDecryptor?
    /// Which failures block a URL (default: SDWebImage's rule, ``FailedURLBlockingPolicy/standard``).
    public var blockingPolicy = FailedURLBlockingPolicy.standard
    /// Where started / response / stopped / finished lines go, at debug level.
    public var logger = Logger(label: "WebImage.HTTPImageLoader")
    /// Where requests with ``ImageLoadRequest/handlesCookies`` read and store cookies (default
    /// `HTTPCookieStorage.shared`, looked up only when such a request runs: on Linux the shared
    /// storage persists cookies under `~/.local/share`). Tests can set an in-memory storage such
    /// as `URLSessionConfiguration.ephemeral.httpCookieStorage`.
    public var cookieStorage: HTTPCookieStorage {
        get { customCookieStorage ?? .shared }
        set { customCookieStorage = newValue }
    }
    private var customCookieStorage: HTTPCookieStorage?

    /// The defaults.
    public init() {}
}
