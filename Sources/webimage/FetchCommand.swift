import ArgumentParser
import Foundation
import WebImageKit

/// `webimage fetch URL...`: load each URL through the manager (cache first) and write a file per URL.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the cache and write a file for each URL.",
        discussion: """
            Each URL is looked up in the memory and disk caches first and downloaded only when \
            missing. Without --resize, --thumbnail or --format the file holds the original bytes. \
            On a terminal a live display shows a bar per download and an overall bar; otherwise \
            one line per URL. Exit codes: 0 all succeeded, 1 some failed, 2 usage error, 130 \
            interrupted (Ctrl-C).
            """)

    @Argument(help: "http(s), s3://bucket/key, file:// or data: URLs.")
    var urls: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The directory to write into (created if missing).", valueName: "DIR"))
    var output = "."

    @OptionGroup var transform: TransformOptions

    @OptionGroup var presets: PresetOptions

    @Option(help: "Re-encode every image in this format.")
    var format: OutputFormatArgument?

    @Flag(help: "Revalidate cached images with the server (If-None-Match / If-Modified-Since).")
    var refresh = false

    @Flag(help: "Neither read nor write the caches.")
    var noCache = false

    @Flag(help: "Never download: only what the caches hold.")
    var cacheOnly = false

    @Flag(help: "Try URLs that failed permanently (e.g. 404) again: they are blocked for an hour, across runs.")
    var retryFailed = false

    @Option(help: "Downloads at once, 1–256.")
    var concurrency = 6

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var retries: RetriesOption

    @Option(
        name: .customLong("fallback"),
        help: ArgumentHelp(
            "A URL tried when a URL fails, downloading or decoding (repeatable: tried in order); the result is cached under the URL asked for.",
            valueName: "URL"))
    var fallbacks: [String] = []

    @Flag(help: "One JSON object per line: started, progress, finished or failed, summary.")
    var json = false

    @Flag(help: "Decode images while they download; with --json, print a preview event for each partial image.")
    var progressive = false

    @OptionGroup var redis: RedisOption

    @OptionGroup var s3: S3Option

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try presets.check(against: transform)
        try OptionLimits.checkConcurrency(concurrency)
        if cacheOnly && noCache { throw ValidationError("--cache-only and --no-cache cannot be used together") }
        if cacheOnly && refresh { throw ValidationError("--cache-only and --refresh cannot be used together") }
        for fallback in fallbacks where loadableURL(fallback) == nil {
            throw ValidationError("--fallback \(fallback) is not an http, https, s3, file or data URL")
        }
        _ = try s3Configuration()
    }

    /// The S3 settings of the flags and the environment; credentials are asked for only when an
    /// s3:// URL is loaded (its load fails naming them).
    func s3Configuration() throws -> S3Configuration? {
        do {
            return try s3.configuration(environment: ProcessInfo.processInfo.environment, alwaysOn: true, requiringCredentials: false)
        } catch let error as WebImageError {
            throw ValidationError(error.message)
        }
    }

    func run() async throws {
        do {
            try LocalFile.makeDirectory(output)
        } catch {
            printError("webimage: error: \(failureMessage(error))")
            throw ExitCode(1)
        }
        let session = try await CommandSession(
            global: global, concurrency: concurrency, timeout: timeout.duration, retries: retries.retries, cache: noCache ? .none : .optional,
            redis: redis.tier, s3: try s3Configuration())
        let display = ProgressDisplay(mode: .choose(json: json, quiet: global.quiet), total: urls.count)
        let job = FetchJob(settings: settings, session: session, display: display, files: OutputFiles(directory: output))
        let (urls, concurrency) = (urls, concurrency)
        let start = ContinuousClock.now
        let interrupted = await Interrupt.run(onInterrupt: { display.interrupt() }) {
            await withTaskGroup(of: Void.self) { group in
                var next = 0
                func addNext() {
                    guard next < urls.count, !Task.isCancelled else { return }
                    let (index, url) = (next, urls[next])
                    next += 1
                    group.addTask { display.finished(index, await job.fetch(url, index: index)) }
                }
                for _ in 0..<min(concurrency, urls.count) { addNext() }
                for await _ in group { addNext() }
            }
        }
        await session.shutdown()
        let summary = display.end(cancelled: interrupted, elapsed: .now - start)
        if interrupted { throw ExitCode(130) }
        if summary.failed > 0 { throw ExitCode(1) }
    }

    /// The per-URL settings these options ask for.
    var settings: FetchSettings {
        FetchSettings(
            refresh: refresh, cacheOnly: cacheOnly, retryFailed: retryFailed, noCache: noCache,
            thumbnail: transform.thumbnailSide, draft: transform.draftsThumbnail, maxPixels: transform.maxPixels,
            colorPolicy: transform.colour.policy, metadataPolicy: transform.metadata.policy,
            transformer: transform.transformer, format: format?.format,
            encoding: transform.encodingOptions, formatQuality: (try? transform.formatQualities()) ?? [:], progressive: progressive,
            maxBytes: transform.maxBytes, preset: try? presets.rendering(transform: transform),
            fallbacks: fallbacks.compactMap(loadableURL))
    }
}

/// `--format` values: the formats WebImage encodes.
enum OutputFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case jpeg, jpg, png, webp, gif
    case jxl, tiff, tif
    case avif, heic
    case ppm, pgm, pam, pnm

    var format: ImageFormat {
        switch self {
        case .jpeg, .jpg: .jpeg
        case .png: .png
        case .webp: .webp
        case .gif: .gif
        case .jxl: .jpegXL
        case .tiff, .tif: .tiff
        case .avif: .avif
        case .heic: .heic
        case .ppm: .ppm
        case .pgm: .pgm
        case .pam: .pam
        case .pnm: .pnm
        }
    }
}
