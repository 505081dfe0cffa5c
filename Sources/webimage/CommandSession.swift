import ArgumentParser
import Foundation
import WebImageKit
import WebImageRedis

/// The pipeline one command run uses: a manager over the standard coders, the disk cache the
/// global options describe (behind a memory cache; blocked failed URLs are kept in its index for
/// an hour), and an HTTP loader; ``shutdown()`` closes them at the end.
struct CommandSession: Sendable {
    let manager: ImageManager
    let http: HTTPImageLoader
    /// The disk cache, when the command uses one and it could be opened, and the shared Redis
    /// tier (`--redis`) behind it.
    let tiers: CacheTiers
    /// The disk cache, when the command uses one and it could be opened.
    var disk: DiskCache? { tiers.disk }

    /// Builds the session; `concurrency` bounds simultaneous downloads, `timeout` is each
    /// download's total deadline (the 15 s connect and idle timeouts stay), `retries` how many
    /// times a transient failure is tried again within it, `cache` says
    /// whether the disk cache is opened, `redis` adds the shared Redis tier behind it (and
    /// coordinates downloads through it) unless caching is off, `s3` says how the HTTP loader reads
    /// `s3://` URLs (default: from the environment alone, `AWS_*` and `WEBIMAGE_S3_*`, for the
    /// commands without `--s3-*` flags: `info`, `prefetch`, `show`).
    init(
        global: GlobalOptions, concurrency: Int, timeout: Duration? = nil, retries: Int = 0, cache: CacheUse = .required,
        redis: (configuration: RedisConfiguration, keys: RedisEntryKeyring)? = nil, s3: S3Configuration? = nil
    ) async throws {
        var httpConfiguration = HTTPImageLoaderConfiguration()
        httpConfiguration.s3 = try s3 ?? S3Option.parse([]).configuration(
            environment: ProcessInfo.processInfo.environment, alwaysOn: true, requiringCredentials: false)
        httpConfiguration.maximumConcurrentDownloads = concurrency
        if let timeout { httpConfiguration.totalTimeout = timeout }
        if retries > 0 { httpConfiguration.retryStrategy = .exponentialBackoff(maximumRetries: retries) }
        httpConfiguration.logger = global.makeLogger(label: "webimage.http")
        http = HTTPImageLoader(configuration: httpConfiguration)
        let disk = try global.openDiskCache(cache)
        let coders = ImageCodersManager.tool()
        tiers = CacheTiers(disk: disk, redis: cache == .none ? nil : redis.map { global.redisCache($0.configuration, keys: $0.keys) })
        var configuration = ImageManager.Configuration(
            imageCache: tiers.imageCache(decoder: coders), loader: tiers.coordinating(ImageLoadersManager.standard(http: http)),
            coders: coders)
        configuration.logger = global.makeLogger(label: "webimage.manager")
        configuration.failedURLTimeToLive = .seconds(GlobalOptions.failedURLTimeToLive)
        // Blocked URLs survive the run in the cache's index (a memory store when there is no cache).
        if let disk {
            do {
                configuration.failedURLs = try await disk.failedURLStore(timeToLive: GlobalOptions.failedURLTimeToLive)
            } catch {
                printError("""
                    webimage: warning: cannot keep failed URLs in the cache (\(failureMessage(error)));                     they are remembered for this run only
                    """)
            }
        }
        manager = ImageManager(configuration: configuration)
    }

    /// Stops the HTTP client and closes the cache tiers (the disk index is checkpointed); call once
    /// when the command is done.
    func shutdown() async {
        try? await http.shutdown()
        await tiers.close()
    }
}

/// Where an image of `url` came from, as the tool reports it: memory, disk, or else the
/// loader's kind (file, data, network).
func sourceName(cacheType: ImageCacheType, url: URL?) -> String {
    switch cacheType {
    case .memory: return "memory"
    case .disk: return "disk"
    default:
        switch url?.scheme?.lowercased() {
        case "file": return "file"
        case "data": return "data"
        default: return "network"
        }
    }
}

/// `entry` as a URL one of the tool's loaders can load (http, https, s3, file, data), else nil.
func loadableURL(_ entry: String) -> URL? {
    guard let url = URL(string: entry), let scheme = url.scheme?.lowercased(),
        ["http", "https", "s3", "file", "data"].contains(scheme)
    else { return nil }
    return url
}

/// `value` as one line of sorted-key JSON, slashes unescaped, ending in a newline.
func jsonLine(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
}

/// The message a failure is reported with: the typed error's code and message.
func failureMessage(_ error: any Error) -> String {
    if let error = error as? WebImageError { return error.description }
    return String(describing: error)
}

/// `12.3 KB`-style byte counts (powers of 1024).
func formatBytes(_ bytes: Int) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
}

/// Whole milliseconds of a duration (the remainder is dropped).
func wholeMilliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
}
