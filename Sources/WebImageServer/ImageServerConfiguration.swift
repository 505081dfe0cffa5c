public import Foundation
public import WebImageHTTP
public import WebImageRedis
public import WebImage

/// Settings of an ``ImageServer``: where it listens, how URLs are signed, where sources may come
/// from, the limits checked before work, admission control and caching. Every field is defaulted.
///
/// ```swift
/// var configuration = ImageServerConfiguration()
/// configuration.port = 8080
/// configuration.signingKeys = [try URLSigningKey(keyHex: "736563726574", saltHex: "68656c6c6f")]
/// configuration.cacheDirectory = URL(fileURLWithPath: "/var/cache/webimage")
/// let server = try ImageServer(configuration: configuration)
/// try await server.run()
/// ```
public struct ImageServerConfiguration: Sendable {
    /// The address to listen on (default `127.0.0.1`; a service behind a proxy or in a container
    /// usually listens on `0.0.0.0`).
    public var host = "127.0.0.1"
    /// The port (default 8080; 0 picks a free one, reported by ``ImageServer/run(onListening:)``).
    public var port = 8080
    /// Key/salt pairs accepted for signatures, the first one current; older pairs stay during a
    /// rotation. Empty with ``allowsUnsigned`` false refuses every image URL.
    public var signingKeys: [URLSigningKey] = []
    /// Accept `unsafe` (and `_`) in place of a signature (default `false`).
    public var allowsUnsigned = false
    /// Every URL the HTTP loader fetches (first and each redirect hop) must pass it: the SSRF
    /// rules. By default ``WebImageHTTP/HTTPURLPolicy/ssrfGuard(allowHosts:denyHosts:)`` with no
    /// pattern: loopback, private, link-local, multicast and the like are refused (`403`). Allow
    /// a private origin with `.ssrfGuard(allowHosts: [try HostPattern("10.1.2.3")])`; `nil`
    /// allows every well-formed http(s) URL.
    public var urlPolicy: HTTPURLPolicy? = .ssrfGuard()
    /// The directory `local:///path` sources are read from (`nil`: `local://` is refused).
    public var localRoot: URL?
    /// Where `s3://bucket/key` sources are read from, with which keys and which buckets (`nil`:
    /// `s3://` is refused with `403`). A bucket off ``WebImageHTTP/S3Configuration/allowedBuckets``
    /// is `403` before any fetch; the store's endpoint skips ``urlPolicy`` (it is the operator's
    /// address); the byte limit, the timeout, retries and one download per source apply as for
    /// http(s). A store that refuses the credentials or the region is `502`, naming the setting
    /// in the log.
    public var s3: S3Configuration?

    /// Checks ``s3`` at start: a usable endpoint and region, and credentials, else
    /// `invalidServerConfiguration` naming the setting.
    func checkS3() throws {
        guard let s3 else { return }
        do {
            try s3.validate()
        } catch let error as WebImageError {
            throw WebImageError(.invalidServerConfiguration, error.message)
        }
        guard s3.credentials != nil else {
            throw WebImageError(.invalidServerConfiguration, "s3:// sources need credentials: give \(s3.settingNames.credentials)")
        }
    }
    /// Where originals and results are cached on disk (`nil`: memory only).
    public var cacheDirectory: URL?
    /// A Redis tier shared by several nodes, behind memory and disk (`nil`: none). Originals and
    /// results found there are not fetched or made again; a node that has to download a source
    /// holds a short lock in Redis so that the others wait for its bytes instead of fetching too.
    /// Redis down or slow never fails a request: its circuit breaker stops asking for a while.
    public var redis: RedisConfiguration?
    /// The keys that sign and verify this service's entries in ``redis``: the first signs, every
    /// one verifies (list a new key first and the old one after it to rotate). Empty (the
    /// default): each of ``signingKeys`` gives one, ``URLSigningKey/redisEntryKey``, in the same
    /// order, so nodes sharing URL keys share Redis keys. With neither, a server with ``redis``
    /// does not start. Entries that do not verify are misses (see ``WebImageRedis/RedisImageCache``).
    public var redisKeys: [RedisEntryKey] = []
    /// The namespace of this service's entries in ``redis`` (default `serve`).
    public var redisNamespace = "serve"
    /// The disk cache's size budget, shared by originals and results (default 1 GiB).
    public var maxDiskCacheBytes = 1 << 30
    /// Bytes of encoded results kept in memory (default 256 MiB).
    public var memoryCacheBytes = 256 << 20
    /// The limits checked before work.
    public var limits = ImageServerLimits()
    /// Images processed at once (default: the number of cores).
    public var concurrency = ProcessInfo.processInfo.activeProcessorCount
    /// The estimated peak memory of the images processed at once (default: half the memory the
    /// process may use, ``WebImage/ContainerMemory``: the container's limit, else the RAM). Each
    /// request's peak is estimated from its source's header before anything is decoded: decode,
    /// resize and the encoder's own working memory. Work that does not fit waits in the queue;
    /// a request larger than the whole budget is refused (`422`).
    public var memoryBudget: Int? = ContainerMemory.current().limit / 2
    /// Requests waiting for a processing slot beyond ``concurrency``; more get `503` (default 64).
    public var queueLimit = 64
    /// How long a source that failed permanently (a 404, a 403, not an image; never a 5xx or a
    /// timeout) is answered from memory instead of being fetched again (default 60 s).
    public var failedSourceTTL = Duration.seconds(60)
    /// How many times a failed origin fetch is tried again (default 1): only for a transient
    /// failure (a 500, 502, 503 or 504, a 408 or 429, a timeout, a lost connection), after a short
    /// jittered wait or the origin's `Retry-After`, within ``ImageServerLimits/requestTimeout``, and
    /// within each origin host's retry budget (10, plus one per ten fetches). 0: never.
    public var originRetries = 1
    /// The most time a client may take to send a request's head, from the connection's start or
    /// the end of the previous response (default 10 s); slower connections are closed.
    public var headerTimeout = Duration.seconds(10)
    /// How long a keep-alive connection may stay idle between requests (default 60 s).
    public var idleTimeout = Duration.seconds(60)
    /// After a graceful shutdown starts: how long the server goes on serving with `/ready`
    /// answering `503`, so that load balancers stop sending before it stops accepting
    /// (default 3 s). Running requests then finish before it exits.
    public var drainDelay = Duration.seconds(3)
    /// `Retry-After` seconds sent with a `503` (default 1).
    public var retryAfterSeconds = 1
    /// `Cache-Control: public, max-age=` of images (default one year: results are immutable for a
    /// signed URL).
    public var cacheMaxAge = 31_536_000
    /// `max-age` of error responses (default 10 s), so a client or CDN retries soon.
    public var errorCacheMaxAge = 10
    /// Quality (1–100) of lossy outputs when the URL names none (default 80).
    public var defaultQuality = 80
    /// Quality by output format when the URL names none (`serve --format-quality webp=75,avif=55`,
    /// imgproxy's `IMGPROXY_FORMAT_QUALITY`); a URL's `fq` adds to it, its `q` wins over both.
    /// Formats not listed get ``defaultQuality``.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// What happens to a source's colour profile unless the URL says (`scp`): converted to sRGB
    /// and stripped (the default, as imgproxy), kept, or ignored (`serve --colour`).
    public var colorPolicy = ColorPolicy.sRGB
    /// Presets given directly (`serve --preset NAME=OPTIONS`): `pr:NAME` in URLs, `default` for
    /// every request (see ``ProcessingPresets``). They win over ``presetsFile``'s of the same name.
    public var presets = ProcessingPresets()
    /// A file of presets, one `name=options` a line (`serve --presets-file`), read at start and
    /// again by ``ImageServer/reloadPresets()`` (on SIGHUP when serving); `nil`: none.
    public var presetsFile: URL?
    /// Whether URLs may only name presets (imgproxy's `IMGPROXY_ONLY_PRESETS`): each option
    /// segment is `pr:NAME…` or a bare `NAME:NAME…` list; any other option is `400`.
    public var onlyPresets = false
    /// An image answered in place of a source that fails (`serve --fallback-image FILE|URL`): a
    /// file, or an http(s) URL fetched like any source (SSRF guard included). It is rendered with
    /// the request's options and answered with the failure's status, the errors' `Cache-Control`
    /// and `X-Fallback: 1`. `nil` (the default): failures are answered as text.
    public var fallbackImage: URL?
    /// What of a source's EXIF, XMP and IPTC the outputs keep unless the URL says (`sm`, `kcr`):
    /// nothing by default (`serve --metadata`).
    public var metadataPolicy = MetadataPolicy.strip
    /// The image `wm:` draws (`serve --watermark FILE|URL`, imgproxy's `IMGPROXY_WATERMARK_PATH`
    /// and `_URL`): a file, read at start, or an http(s) URL fetched once before listening
    /// (SSRF guard included); either must decode, or the server does not start. `nil`: `wm:`
    /// needs a `wmu:`.
    public var watermark: URL?
    /// The directory `wmu:` may name `local:///path` watermarks in (`serve --watermark-dir`);
    /// `nil`: refused.
    public var watermarkDirectory: URL?
    /// Hosts (exact names, lower case) `wmu:` may fetch http(s) watermarks from
    /// (`serve --watermark-allow-host`), still through ``urlPolicy``; empty: none.
    public var watermarkAllowHosts: Set<String> = []
    /// Whether `f:auto` (and URLs without a format) may answer AVIF to clients that accept it
    /// (default `true`; AVIF encodes are slow, so busy services may prefer WebP only).
    public var prefersAVIF = true
    /// Whether `f:auto` (and URLs without a format) answers JPEG XL to clients whose `Accept`
    /// lists `image/jxl`, before AVIF and WebP (`serve --auto-jxl`, imgproxy's `IMGPROXY_AUTO_JXL`;
    /// default `false`: few browsers decode it and its encoder is slower than WebP's).
    public var offersJXL = false
    /// Whether image URLs may carry a query string (default `false`: `400`). imgproxy ignores
    /// the query, so one signed URL would stand for endless distinct URIs, each a miss in a
    /// cache in front (the fleet's nginx); allow it only when something in front needs it.
    public var allowsQueryString = false
    /// Access logs at info level, one line per request (default `true`).
    public var accessLog = true
    /// The bearer token of `DELETE /purge/{signature}/plain/{source}`, which removes a source's
    /// original and every result made from it from memory, the disk and Redis; nil (the
    /// default): no purge route (`405`).
    public var purgeToken: String?
    /// The wall clock the origins' `Cache-Control`/`Expires` are judged by, and the disk cache
    /// dates its entries by (a manual one in tests).
    public var clock: any CacheClock = SystemCacheClock()

    /// The defaults.
    public init() {}
}

extension ImageServerConfiguration {
    /// Checks ``fallbackImage``: a file must hold an image (its header is read), a URL must be
    /// http(s); throws ``WebImage/WebImageError/Code/invalidServerConfiguration`` naming it.
    public func checkFallbackImage(coders: ImageCodersManager) throws {
        guard let url = fallbackImage else { return }
        if url.isFileURL {
            do {
                _ = try coders.readHeader(try Data(contentsOf: url))
            } catch {
                throw WebImageError(
                    .invalidServerConfiguration, "the fallback image \(url.path) is not a readable image: \((error as? WebImageError)?.message ?? error.localizedDescription)")
            }
        } else {
            try Self.requireWebURL(url, naming: "the fallback image")
        }
    }

    /// Checks ``watermark`` when it is a file (it must decode; a URL is fetched and checked by
    /// ``ImageServer/run(gracefulShutdownSignals:onListening:)``) and that ``watermarkDirectory``
    /// is a directory; throws ``WebImage/WebImageError/Code/invalidServerConfiguration`` naming it.
    public func checkWatermark(coders: ImageCodersManager) throws {
        if let directory = watermarkDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw WebImageError(.invalidServerConfiguration, "the watermark directory \(directory.path) is not a directory")
            }
        }
        guard let url = watermark else { return }
        if url.isFileURL {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw WebImageError(.invalidServerConfiguration, "the watermark \(url.path) cannot be read: \(error.localizedDescription)")
            }
            _ = try WatermarkImage(checking: data, origin: url.path, coders: coders)
        } else {
            try Self.requireWebURL(url, naming: "the watermark")
        }
    }

    /// Throws `invalidServerConfiguration` unless `url` (not a file) is an http(s) URL with a host.
    private static func requireWebURL(_ url: URL, naming what: String) throws {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw WebImageError(.invalidServerConfiguration, "\(what) \(url.absoluteString) is neither a file nor an http(s) URL")
        }
    }

    /// The presets in force: ``presetsFile``'s (read now), with ``presets`` over them, each checked
    /// to parse; throws ``WebImage/WebImageError/Code/invalidServerConfiguration`` naming the file
    /// or the bad preset.
    public func loadPresets() throws -> ProcessingPresets {
        let file = try presetsFile.map { try ProcessingPresets(contentsOf: $0) } ?? ProcessingPresets()
        let merged = file.merging(presets)
        try merged.validate(maxDimension: limits.maxResultDimension)
        return merged
    }

    /// The keyring of the Redis tier: ``redisKeys``, else the keys derived from ``signingKeys``;
    /// throws ``WebImage/WebImageError/Code/invalidServerConfiguration`` when both are empty.
    public func redisKeyring() throws -> RedisEntryKeyring {
        guard let keyring = RedisEntryKeyring(redisKeys.isEmpty ? signingKeys.map(\.redisEntryKey) : redisKeys) else {
            throw WebImageError(
                .invalidServerConfiguration,
                "entries in Redis are signed: give a Redis key (--redis-key ID:HEX, WEBIMAGE_REDIS_KEY), or a URL signing key and salt to derive one from")
        }
        return keyring
    }
}

/// The limits an ``ImageServer`` checks before it spends work; each refusal has its own status.
public struct ImageServerLimits: Sendable, Hashable {
    /// The largest source, in bytes, from `Content-Length` and while streaming (default 50 MB): `413`.
    public var maxSourceBytes = 50 * 1024 * 1024
    /// The most pixels of a source (each frame), read from its header before decoding (default 50 MP): `422`.
    public var maxSourcePixels = 50_000_000
    /// The most pixels over all frames of an animated source (default 500 MP): `422`.
    public var maxAnimationPixels = 500_000_000
    /// The largest result width or height asked for or produced (default 8192): `422`.
    public var maxResultDimension = 8192
    /// The time allowed for one image request, fetch and processing included (default 30 s): `504`.
    public var requestTimeout = Duration.seconds(30)

    /// The defaults.
    public init() {}
}
