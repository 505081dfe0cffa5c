public import Foundation
public import Logging
public import Metrics

extension ImageManager {
    /// What an ``ImageManager`` is made of and how it behaves: cache, loader, coders, default
    /// options, the failed-URL policy and the hooks.
    ///
    /// ```swift
    /// var configuration = ImageManager.Configuration(imageCache: cache, loader: loaders, coders: coders)
    /// configuration.defaultOptions = [.scaleDownLargeImages]
    /// configuration.shouldDownload = { url in url.host != "ads.example.com" }
    /// let manager = ImageManager(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The cache queried and stored into (SDWebImage's `imageCache`).
        public var imageCache: ImageCache
        /// The loader that downloads (SDWebImage's `imageLoader`).
        public var loader: any ImageLoading
        /// The coders that decode downloads and disk hits and encode transformed images.
        public var coders: any ImageCoding
        /// Options added to every request.
        public var defaultOptions: ImageRequest.Options = []
        /// How long a permanently failing URL stays blocked; `nil` (the default): for the manager's
        /// lifetime, as SDWebImage. Transient failures are never blocked (``FailedURLBlockingPolicy``).
        public var failedURLTimeToLive: Duration?
        /// The failed-URL store to use instead of an in-memory one made from ``failedURLTimeToLive``:
        /// a ``FailedURLCache`` over an injected clock, or `WebImageDiskCache`'s `DiskFailedURLStore`
        /// to keep blocked URLs across runs. The manager records only the failures its should-block
        /// decision (the hook, else the loader's ``FailedURLBlockingPolicy``) accepts.
        public var failedURLs: (any FailedURLRecording)?
        /// Whether requests that need the same work share it (Nuke's `isTaskCoalescingEnabled`):
        /// one final-image task per result, one download+decode per original, one computation per
        /// shared transformer prefix. `false` gives every request its own stages (the loader may
        /// still share a transfer: `HTTPImageLoader` keeps one download per URL). Default `true`.
        public var isCoalescingEnabled = true
        /// How many decodes and transforms run at once (default: the number of active cores).
        public var maximumConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount
        /// Refuse sources with more pixels than this, from the header, before any pixel memory is
        /// allocated (``WebImageError/Code/tooLarge``); a request's own
        /// ``ImageRequest/Decoding/maxPixelCount`` wins. Default 100 megapixels.
        ///
        /// ```swift
        /// configuration.maxPixelCount = 10_000_000   // a 12 MP photo is refused, not decoded
        /// ```
        public var maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
        /// Refuse animations whose frames hold more pixels than this in all
        /// (``ImageDecodingOptions/maxAnimationPixelCount``); a request's own
        /// ``ImageRequest/Decoding/maxAnimationPixelCount`` wins. Default one billion.
        public var maxAnimationPixelCount: Int = ImageDecodingOptions.defaultMaxAnimationPixelCount
        /// Asked before each download; `false` fails the request with
        /// ``WebImageError/Code/downloadDisallowed`` (SDWebImage's `shouldDownloadImageForURL:`).
        public var shouldDownload: (@Sendable (URL) -> Bool)?
        /// Decides whether a failure blocks its URL, instead of the loader's rule
        /// (SDWebImage's `shouldBlockFailedURL:withError:`).
        public var shouldBlockFailedURL: (@Sendable (URL, any Error) -> Bool)?
        /// Rewrites every request before it runs (SDWebImage's `optionsProcessor`).
        public var optionsProcessor: (@Sendable (ImageRequest) -> ImageRequest)?
        /// The shortest time between two previews of one download
        /// (``ImageRequest/Options/progressiveLoad``); 0 delivers one whenever the bytes show more.
        /// Between two due times arriving bytes are decoded but not rendered. Default 100 ms.
        public var progressiveInterval: Duration = .milliseconds(100)
        /// The clock that times ``progressiveInterval``: the continuous clock, or a manual one in tests.
        public var progressiveClock: any Clock<Duration> = ContinuousClock()
        /// The wall clock HTTP freshness is judged by: a disk entry whose `Cache-Control` or
        /// `Expires` says it is stale at this clock's time is revalidated before it is used
        /// (``CacheEntryMetadata/isFresh(at:shared:)``). Give the disk cache the same clock.
        public var freshnessClock: any CacheClock = SystemCacheClock()
        /// Where the manager logs (failures at `.warning`, stages at `.trace`).
        public var logger = Logger(label: "WebImage.ImageManager")
        /// The prefix of the manager's metric labels (`<prefix>_requests_total`, …).
        public var metricsPrefix = "webimage_manager"
        /// The swift-metrics factory for the manager's instruments; `nil`: the bootstrapped
        /// `MetricsSystem.factory`.
        public var metricsFactory: (any MetricsFactory)?

        /// A configuration from its three components.
        public init(imageCache: ImageCache, loader: any ImageLoading, coders: any ImageCoding) {
            self.imageCache = imageCache
            self.loader = loader
            self.coders = coders
        }
    }
}
