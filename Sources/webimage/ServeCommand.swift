import ArgumentParser
import Foundation
import Logging
import WebImageKit
import WebImageServer

/// `webimage serve`: the image service (see docs/service.md).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve resized and converted images over HTTP (imgproxy-style signed URLs).",
        discussion: """
            Every option can also come from the environment: WEBIMAGE_ and the option's name in \
            capitals with _ for -, e.g. WEBIMAGE_KEY, WEBIMAGE_SALT, WEBIMAGE_PORT, WEBIMAGE_CACHE_DIR; \
            repeatable options take a comma-separated list (WEBIMAGE_ALLOW_HOST=127.0.0.1,10.0.0.0/8). \
            A flag on the command line wins over the environment. Once listening, one JSON line \
            {"event":"listening","host":…,"port":…} goes to standard output; access logs go to \
            standard error. SIGTERM or SIGINT shut down gracefully.
            """)

    @Option(name: [.customLong("bind"), .customLong("host")], help: ArgumentHelp("Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).", valueName: "HOST"))
    var bind: String?
    @Option(help: ArgumentHelp("Port to listen on (default 8080; 0 picks a free one).", valueName: "N"))
    var port: Int?
    @Option(help: ArgumentHelp("HMAC key in hex; repeat with --salt for rotation (the first pair signs, all verify).", valueName: "HEX"))
    var key: [String] = []
    @Option(help: ArgumentHelp("Salt in hex, one per --key.", valueName: "HEX"))
    var salt: [String] = []
    @Flag(help: "Accept 'unsafe' in place of a signature.")
    var allowUnsigned = false
    @Option(help: ArgumentHelp("Let sources on hosts matching PATTERN through the SSRF guard (127.0.0.1, *.example.com, 10.0.0.0/8, [::1]).", valueName: "PATTERN"))
    var allowHost: [String] = []
    @Option(help: ArgumentHelp("Refuse sources on hosts matching PATTERN.", valueName: "PATTERN"))
    var denyHost: [String] = []
    @Option(help: ArgumentHelp("Serve local:///path sources from DIR (no path may leave it).", valueName: "DIR"))
    var localRoot: String?
    @Option(help: ArgumentHelp("Disk cache of originals and results (default: memory only).", valueName: "DIR"))
    var cacheDir: String?
    @Option(help: ArgumentHelp(
        "A Redis tier shared by several nodes behind memory and disk, with one origin download per source across them: redis://[user:password@]host:port[/db] (rediss:// for TLS). Its entries are signed (--redis-key).",
        valueName: "URL"))
    var redis: String?
    @Option(help: ArgumentHelp(
        "Key signing and verifying the Redis tier's entries, ID:HEX (16 or more bytes); repeat to rotate (the first signs, all verify). Default: derived from each --key/--salt pair.",
        valueName: "ID:HEX"))
    var redisKey: [String] = []
    @Option(help: ArgumentHelp("Disk cache budget in bytes (K, M, G suffixes; default 1G).", valueName: "BYTES"))
    var maxDiskSize: String?
    @Option(help: ArgumentHelp("Memory for encoded results in bytes (K, M, G suffixes; default 256M).", valueName: "BYTES"))
    var memoryCache: String?
    @Option(help: ArgumentHelp("Largest source in bytes (K, M, G suffixes; default 50M) → 413.", valueName: "N"))
    var maxSourceBytes: String?
    @Option(help: ArgumentHelp("Most pixels of a source, from its header (default 50000000) → 422.", valueName: "N"))
    var maxSourcePixels: Int?
    @Option(help: ArgumentHelp("Most pixels over all frames of an animation (default 500000000) → 422.", valueName: "N"))
    var maxAnimationPixels: Int?
    @Option(help: ArgumentHelp("Largest result width or height (default 8192) → 422.", valueName: "N"))
    var maxResultDimension: Int?
    @Option(help: ArgumentHelp("Seconds allowed per image request (default 30) → 504.", valueName: "SECONDS"))
    var timeout: Double?
    @Option(help: ArgumentHelp("Images processed at once (default: the number of cores).", valueName: "N"))
    var concurrency: Int?
    @Option(help: ArgumentHelp(
        "Estimated peak memory of the images processed at once, in bytes (K/M/G; default half the container's limit, else the RAM).",
        valueName: "BYTES"))
    var memoryBudget: String?
    @Option(help: ArgumentHelp("Requests waiting beyond --concurrency before 503 (default 64).", valueName: "N"))
    var queue: Int?
    // Named as imgproxy's IMGPROXY_TTL: `--max-age` is a cache entry's age in every other command.
    @Option(help: ArgumentHelp("Cache-Control max-age of images, in seconds (default 31536000).", valueName: "SECONDS"))
    var ttl: Int?
    @Option(help: ArgumentHelp("Cache-Control max-age of errors, in seconds (default 10).", valueName: "SECONDS"))
    var errorTtl: Int?
    @Option(help: ArgumentHelp("Default quality of lossy outputs, 1–100 (default 80).", valueName: "Q"))
    var quality: Int?
    @Option(help: ArgumentHelp(
        "Quality by output format when the URL names none, e.g. webp=75,avif=55 (over --quality; a URL's q and fq win).",
        valueName: "FORMAT=Q,…"))
    var formatQuality: String?
    @Option(
        name: [.customLong("colour"), .customLong("color")],
        help: ArgumentHelp(
            "A source's colour profile unless the URL says (scp:1/scp:0): srgb converts and strips it (default), keep leaves the pixels and writes it where the format carries one, ignore drops it.",
            valueName: "srgb|keep|ignore"))
    var colour: ColourArgument?
    @Option(
        help: ArgumentHelp(
            "A source's EXIF, XMP and IPTC unless the URL says (sm, kcr): strip (default), copyright, keep (no GPS), keep-all.",
            valueName: "strip|copyright|keep|keep-all"))
    var metadata: MetadataArgument?
    @Flag(help: "Never answer AVIF to f:auto (WebP only).")
    var noAvif = false
    @Flag(help: "Answer JPEG XL to f:auto when Accept lists image/jxl (before AVIF and WebP).")
    var autoJxl = false
    @Flag(help: "No access log lines.")
    var noAccessLog = false
    @Option(help: ArgumentHelp("Seconds a client may take to send a request's head (default 10).", valueName: "SECONDS"))
    var headerTimeout: Double?
    @Option(help: ArgumentHelp("Seconds a keep-alive connection may stay idle (default 60).", valueName: "SECONDS"))
    var idleTimeout: Double?
    @Option(help: ArgumentHelp(
        "After SIGTERM: seconds to go on serving with /ready answering 503 before no longer accepting (default 3).",
        valueName: "SECONDS"))
    var drainDelay: Double?
    @Option(help: ArgumentHelp(
        "Seconds a source that failed permanently (404, not 5xx) is answered without asking the origin again (default 60).",
        valueName: "SECONDS"))
    var failedSourceTtl: Double?
    @Option(help: ArgumentHelp(
        "Times a failed origin fetch is tried again: transient failures only (5xx, 429, timeouts, lost connections), with backoff and a per-host budget (default 1; 0 never).",
        valueName: "N"))
    var originRetries: Int?
    @Flag(help: "Accept image URLs with a query string (ignored, as imgproxy does; by default they are refused with 400).")
    var allowQuery = false
    @Option(help: ArgumentHelp(
        "A preset: pr:NAME in URLs stands for OPTIONS (as in a URL, /-separated); one named default applies to every request. Repeatable; wins over --presets-file.",
        valueName: "NAME=OPTIONS"))
    var preset: [String] = []
    @Option(help: ArgumentHelp("Presets, one NAME=OPTIONS a line (# comments); read again on SIGHUP.", valueName: "FILE"))
    var presetsFile: String?
    @Flag(help: "URLs may only name presets (pr:NAME, or NAME:NAME as imgproxy's IMGPROXY_ONLY_PRESETS); other options are 400.")
    var onlyPresets = false
    @Option(help: ArgumentHelp(
        "An image answered, through the request's options, when a source fails (the failure's status, X-Fallback: 1): a file or an http(s) URL.",
        valueName: "FILE|URL"))
    var fallbackImage: String?
    @Option(help: ArgumentHelp(
        "The image wm:OPACITY:POSITION:X:Y:SCALE draws (imgproxy's watermark): a file or an http(s) URL, read and checked at start.",
        valueName: "FILE|URL"))
    var watermark: String?
    @Option(help: ArgumentHelp("wmu: may name local:///path watermarks in DIR.", valueName: "DIR"))
    var watermarkDir: String?
    @Option(help: ArgumentHelp("wmu: may fetch http(s) watermarks from HOST (exact name; repeatable; the SSRF guard still applies).", valueName: "HOST"))
    var watermarkAllowHost: [String] = []
    @Option(help: ArgumentHelp(
        "Turns on DELETE /purge/{signature}/plain/{source}, authorised by Authorization: Bearer TOKEN: removes a source and its results from memory, disk and Redis.",
        valueName: "TOKEN"))
    var purgeToken: String?
    @Option(help: ArgumentHelp("trace, debug, info (default), notice, warning, error, critical.", valueName: "LEVEL"))
    var logLevel: String?
    @OptionGroup var s3: S3Option

    func run() async throws {
        // A server that decodes on many threads holds freed memory in per-thread arenas.
        MemoryReclaim.limitAllocatorArenas(to: 2)
        // …and gives freed memory back only when it idles, not at every decode.
        MemoryReclaim.retainFreedMemory(upTo: 256 << 20)
        let settings = ServeSettings(command: self, environment: ProcessInfo.processInfo.environment)
        let configuration: ImageServerConfiguration
        var logger = Logger(label: "webimage.serve") { StreamLogHandler.standardError(label: $0) }
        do {
            configuration = try settings.configuration()
            logger.logLevel = try settings.logLevel()
        } catch let error as WebImageError {
            throw ValidationError(error.message)
        }
        let server = try ImageServer(configuration: configuration, logger: logger)
        let host = configuration.host
        do {
            try await server.run { port in
                let line = #"{"event":"listening","host":"\#(host)","port":\#(port)}"# + "\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        } catch let error as WebImageError where error.code == .invalidServerConfiguration {
            // A setting checked at start (the --watermark URL): a usage error, exit 2.
            throw ValidationError(error.message)
        }
    }
}
