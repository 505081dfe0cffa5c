public import AsyncHTTPClient
public import Foundation
import Logging
import NIOCore
import NIOSSL
import Synchronization
public import WebImage

/// Loads http:// and https:// URLs on AsyncHTTPClient: SDWebImage's `SDWebImageDownloader`; and
/// `s3://bucket/key` URLs, signed, with ``HTTPImageLoaderConfiguration/s3``.
///
/// - One download per URL however many callers: each ``load(_:)`` returns its own
///   ``ImageLoad/Task`` (a token) that can be cancelled alone; the transfer stops when its last
///   caller cancels; a caller that joins late gets the response and the progress so far at once,
///   then progress as it comes, and the whole body at the end. A revalidating request
///   (``ImageLoad/Request/revalidation``) is shared only with requests revalidating the same
///   validators. The first caller's request (headers, modifiers, decryptor) defines the download.
/// - At most ``HTTPImageLoaderConfiguration/maximumConcurrentDownloads`` transfers at once; the
///   rest wait, highest priority first, FIFO or LIFO among equals; ``ImageLoad/Task/setPriority(_:)``
///   reorders a waiting download.
/// - Loader-wide ``HTTPDownloadEvent``s from ``events()``, also logged at debug level.
/// - Redirects (301, 302, 303, 307, 308) are followed by the loader, at most
///   ``HTTPImageLoaderConfiguration/maximumRedirects`` of them; before any request, the first
///   and every hop, the URL must be http or https with a host and a port in 1…65535, and pass
///   ``HTTPImageLoaderConfiguration/urlPolicy``. A whole download, hops and body included, must
///   end within ``HTTPImageLoaderConfiguration/totalTimeout``.
/// - A request with ``ImageLoad/Request/allowsInvalidCertificates`` goes through a second client
///   without certificate verification (made on first use, otherwise like the first) and never
///   shares a download with a strict request. One with ``ImageLoad/Request/handlesCookies`` sends
///   and stores cookies through ``HTTPImageLoaderConfiguration/cookieStorage``.
///
/// Call ``shutdown()`` when done, which waits for the transfers to stop; a loader released
/// without it shuts its client down in the background.
///
/// ```swift
/// let loader = HTTPImageLoader()
/// let result = try await loader.load(ImageLoad.Request(url: url)).result()
/// print(result.data.count, result.response.cacheMetadata.etag ?? "-", result.metrics.timeToFirstByte ?? .zero)
/// try await loader.shutdown()
/// ```
public final class HTTPImageLoader: ImageLoading {
    /// The settings this loader was made with.
    public let configuration: HTTPImageLoaderConfiguration
    let client: HTTPClient
    let ownsClient: Bool
    let state: Mutex<LoaderState>
    let broadcaster = EventBroadcaster<HTTPDownloadEvent>()
    /// The bytes of interrupted downloads, to resume them; nil when the budget is 0.
    let resumableData: ResumableDataStore?
    /// Set once the missing-cookie-store warning has been logged.
    let warnedAboutMissingCookieStore = Atomic<Bool>(false)

    /// A loader with its own AsyncHTTPClient client built from `configuration`.
    public init(configuration: HTTPImageLoaderConfiguration = HTTPImageLoaderConfiguration()) {
        self.configuration = configuration
        self.client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration(configuration))
        self.ownsClient = true
        self.state = Mutex(LoaderState(configuration: configuration))
        resumableData = configuration.resumableDataBudget > 0 ? ResumableDataStore(byteBudget: configuration.resumableDataBudget) : nil
    }

    /// A loader over a client you own (its TLS, timeout and pool settings apply, not the
    /// configuration's); ``shutdown()`` then leaves the client running.
    ///
    /// Give the client `redirectConfiguration: .disallow`: the loader follows redirects itself
    /// and checks every hop (``HTTPImageLoaderConfiguration/urlPolicy``, the port range), while
    /// a client that follows them on its own sends requests no check has seen.
    public init(configuration: HTTPImageLoaderConfiguration = HTTPImageLoaderConfiguration(), client: HTTPClient) {
        self.configuration = configuration
        self.client = client
        self.ownsClient = false
        self.state = Mutex(LoaderState(configuration: configuration))
        resumableData = configuration.resumableDataBudget > 0 ? ResumableDataStore(byteBudget: configuration.resumableDataBudget) : nil
    }

    /// `"http"`.
    public var name: String { "http" }

    /// Whether `url` is http, https or s3 (an `s3://` load without
    /// ``HTTPImageLoaderConfiguration/s3`` fails, saying so).
    public func canLoad(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https" || scheme == "s3"
    }

    /// The configuration's ``HTTPImageLoaderConfiguration/blockingPolicy`` decides.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        configuration.blockingPolicy.shouldBlock(error)
    }

    /// A new stream of loader-wide events, from now until ``shutdown()``.
    public func events() -> AsyncStream<HTTPDownloadEvent> { broadcaster.subscribe() }

    /// Transfers running now (those being stopped included).
    public var runningDownloadCount: Int { state.withLock { $0.machine.runningCount } }

    /// How many callers wait on a download of `url` (every download of it: plain, revalidating,
    /// lenient), queued or running.
    public func callerCount(for url: URL) -> Int {
        let key = url.absoluteString
        return state.withLock { state in
            state.machine.downloads.values.reduce(0) { $0 + ($1.key.url == key ? $1.subscribers.count : 0) }
        }
    }

    /// Downloads waiting for a slot.
    public var queuedDownloadCount: Int { state.withLock { $0.machine.queue.count } }

    /// Changes how many downloads run at once; waiting ones start if the limit grew.
    public func setMaximumConcurrentDownloads(_ limit: Int) {
        launch(state.withLock { $0.machine.setMaximumConcurrent(limit) })
    }

    /// Cancels every load, ends the event streams and shuts the owned client down.
    /// A loader released without ``shutdown()`` starts its clients' shutdown in the background:
    /// AsyncHTTPClient traps in debug builds when a running client is released (a test cancelled
    /// by its time limit, or a caller that simply drops the loader).
    deinit {
        let (wasShutDown, lenientClient) = state.withLock { ($0.isShutdown, $0.lenientClient) }
        guard !wasShutDown else { return }
        lenientClient?.shutdown { _ in }
        if ownsClient { client.shutdown { _ in } }
    }

    public func shutdown() async throws {
        let (tasks, continuations, lenientClient) = state.withLock { state in
            state.isShutdown = true
            let tasks = state.flows.values.compactMap(\.task)
            let continuations = state.subscribers.values.map(\.continuation)
            state.subscribers.removeAll()
            let lenientClient = state.lenientClient
            state.lenientClient = nil
            return (tasks, continuations, lenientClient)
        }
        for continuation in continuations {
            continuation.finish(throwing: WebImageError(.cancelled, "the loader was shut down"))
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        broadcaster.finish()
        try await lenientClient?.shutdown()
        if ownsClient { try await client.shutdown() }
    }

    /// The client for `request`: the loader's, or for a request that accepts invalid certificates
    /// (on a loader that verifies them) the lenient one, made on first use.
    func client(for request: ImageLoad.Request) throws -> HTTPClient {
        guard request.allowsInvalidCertificates, !(ownsClient && configuration.acceptsInvalidCertificates) else {
            return client
        }
        return try state.withLock { state in
            if let lenient = state.lenientClient { return lenient }
            // After shutdown() took the lenient client, a new one would never be shut down.
            guard !state.isShutdown else { throw WebImageError(.cancelled, "the loader was shut down") }
            let lenient = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: Self.clientConfiguration(configuration, acceptingInvalidCertificates: true))
            state.lenientClient = lenient
            return lenient
        }
    }

    /// AsyncHTTPClient's settings for `configuration`; without certificate verification when
    /// the configuration or `lenient` asks for it.
    static func clientConfiguration(
        _ configuration: HTTPImageLoaderConfiguration, acceptingInvalidCertificates lenient: Bool = false
    ) -> HTTPClient.Configuration {
        var result = HTTPClient.Configuration(
            // The loader follows redirects itself, checking every hop (HTTPURLShape, urlPolicy).
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(
                connect: TimeAmount(configuration.timeout), read: TimeAmount(configuration.readTimeout)))
        result.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, configuration.maximumConcurrentDownloads))
        // A refused connection or a failed TLS handshake fails the load at once with its own error
        // (as URLSession does) instead of being retried until the connect timeout.
        result.connectionPool.retryConnectionEstablishment = false
        if configuration.acceptsInvalidCertificates || lenient {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            result.tlsConfiguration = tls
        }
        return result
    }
}

extension TimeAmount {
    /// The nanoseconds of a `Duration`, saturating.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (nanos, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = .nanoseconds(overflow ? .max : nanos &+ attoseconds / 1_000_000_000)
    }
}
