public import Foundation
public import Logging
public import WebImage

#if canImport(Darwin)
    import WebImageHTTPCookies
#endif

/// Settings of an ``HTTPImageLoader`` (SDWebImage's `SDWebImageDownloaderConfig`); every field is
/// defaulted and each request may override the per-request ones (``ImageLoad/Request``).
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
/// Redirects: the loader follows 301, 302, 303, 307 and 308 itself (a relative `Location` is
/// resolved against the URL that answered), at most ``maximumRedirects`` of them. A 303, and a
/// 301 or 302 after a `POST`, continues as a `GET` without a body. A hop to another origin
/// (scheme, host or port) drops the `Authorization`, `Proxy-Authorization` and `Cookie`
/// headers for the rest of the chain. Every hop is checked before it is sent (see ``urlPolicy``).
///
/// Cookies: AsyncHTTPClient keeps no cookie store. A request with
/// ``ImageLoad/Request/handlesCookies`` sends, on every hop, the `Cookie` header that
/// ``cookieStorage`` holds for that hop's URL (after the caller's own `Cookie` header while the
/// chain stays on the first origin), and stores each response's `Set-Cookie` fields there for
/// the URL that answered, redirect responses included, so a cookie set by one redirect goes
/// with the next hop. Other requests send and store none; their `Set-Cookie` fields are still
/// in ``ImageLoad/Response/headers``.
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
    /// Time allowed to connect and to receive the response head of each hop (default 15 s).
    public var timeout = Duration.seconds(15)
    /// Time allowed between two reads of the response, the head included (default 15 s): the
    /// idle timeout of SDWebImage's downloader.
    public var readTimeout = Duration.seconds(15)
    /// Time allowed for a whole download: every redirect hop, the response head and the whole
    /// body (default 120 s). An origin that keeps a transfer alive by dripping bytes slower than
    /// anyone wants them fails with ``WebImage/WebImageError/Code/timedOut`` when it runs out.
    /// A request can set its own (``ImageLoad/Request/totalTimeout``). Zero or less times out at
    /// once; 100 years or more means no deadline.
    public var totalTimeout = Duration.seconds(120)
    /// The largest body accepted, checked against `Content-Length` and while streaming (default 100 MB).
    public var maximumResponseBytes = 100 * 1024 * 1024
    /// Redirects followed before failing with ``WebImage/WebImageError/Code/invalidDownloadResponse``
    /// (default 10). Zero or less: redirects are not followed and a 3xx response is the final one.
    public var maximumRedirects = 10
    /// Asked before every request the loader sends, the first and each redirect hop, once the
    /// URL has the shape the loader accepts (http or https, a host, a port in 1…65535); a
    /// throw refuses the hop and fails the load (code ``WebImage/WebImageError/Code/urlRefused``
    /// unless the policy throws a ``WebImage/WebImageError`` of its own). Default nil: every
    /// well-formed URL. A server that fetches URLs strangers chose puts its SSRF rules here.
    public var urlPolicy: HTTPURLPolicy?
    /// Headers sent with every request: `Accept` and `User-Agent` by default.
    public var headers: ImageLoad.Headers = ["Accept": defaultAccept, "User-Agent": defaultUserAgent]
    /// Basic-auth credentials sent with every request that carries no `Authorization` header.
    public var credential: ImageLoad.Credential?
    /// Asked when a response is `401` with the URL and its `WWW-Authenticate` value; the request is
    /// sent once more with the credential it returns (nil gives up and keeps the `401`).
    public var credentialProvider: (@Sendable (URL, String?) async -> ImageLoad.Credential?)?
    /// Accept any TLS certificate (self-signed, expired, wrong host) for every request. Off by
    /// default; for tests and closed networks only. One request can opt in alone with
    /// ``ImageLoad/Request/allowsInvalidCertificates``.
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
    /// How a failed download is tried again (default nil: never); a request's own
    /// (``ImageLoad/Request/retryStrategy``) takes precedence. The retries of one download happen
    /// once however many callers share it, all within the total timeout.
    ///
    /// ```swift
    /// configuration.retryStrategy = .exponentialBackoff(maximumRetries: 2)
    /// ```
    public var retryStrategy: (any RetryStrategy)?
    /// Which failures a retry strategy may retry (default ``TransientFailurePolicy/standard``); the
    /// loader adds a connection reset or closed before the response ended.
    public var transientPolicy = TransientFailurePolicy.standard
    /// The retries every host may get beyond its requests (default: 10, plus one per ten requests);
    /// nil: no limit but the strategy's.
    public var retryBudget: RetryBudget? = RetryBudget()
    /// The clock the waits between attempts are slept on.
    public var retryClock: any Clock<Duration> = ContinuousClock()
    /// The bytes of interrupted downloads kept to resume them (Nuke's resumable data; default
    /// 32 MiB, least recently kept out first; 0: none kept). A download that fails or is
    /// cancelled after some bytes, from a server that serves ranges and named a validator, keeps
    /// them; the next load of the URL (a retry, or a later request) sends `Range` and `If-Range`
    /// and continues them only on a `206` whose `Content-Range` starts where they end. Any other
    /// answer starts over. Revalidating requests neither keep nor resume.
    public var resumableDataBudget = 32 * 1024 * 1024
    /// Where `s3://bucket/key` URLs are read from, and with which keys (default nil: such URLs
    /// fail with ``WebImage/WebImageError/Code/storageSettings``). Their loads go through
    /// everything above (the byte limit, timeouts, retries, one download per URL); each request
    /// is signed with AWS Signature V4 just before it is sent. See ``S3Configuration``.
    public var s3: S3Configuration?
    /// Where started / response / stopped / finished lines go, at debug level.
    public var logger = Logger(label: "WebImage.HTTPImageLoader")
    /// Where requests with ``ImageLoad/Request/handlesCookies`` read and store cookies.
    ///
    /// Default: `HTTPCookieStorage.shared` on Apple platforms; none on Linux, where Foundation's
    /// cookie storage lives in FoundationNetworking (libcurl and its ~25 libraries, mapped at start
    /// by any program that links it). There, `import WebImageHTTPCookies` and set
    /// `HTTPCookieStorage.shared` (it persists cookies under `~/.local/share`) or an in-memory
    /// storage such as `URLSessionConfiguration.ephemeral.httpCookieStorage`. Without a store,
    /// such requests send and store no cookies, and the loader logs one warning.
    public var cookieStorage: (any HTTPCookieStoring)? {
        get {
            if let customCookieStorage { return customCookieStorage }
            #if canImport(Darwin)
                return HTTPCookieStorage.shared
            #else
                return nil
            #endif
        }
        set { customCookieStorage = newValue }
    }
    private var customCookieStorage: (any HTTPCookieStoring)?

    /// The defaults.
    public init() {}
}
