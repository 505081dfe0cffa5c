import ArgumentParser
import Foundation
import Logging
import WebImageKit
import WebImageRedis
import WebImageServer

/// `serve`'s options merged with the environment (a flag wins), turned into a configuration.
struct ServeSettings {
    let command: ServeCommand
    let environment: [String: String]

    private func env(_ name: String) -> String? {
        environment["WEBIMAGE_" + name].flatMap { $0.isEmpty ? nil : $0 }
    }

    private func list(_ values: [String], _ name: String) -> [String] {
        values.isEmpty ? (env(name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []) : values
    }

    private func flag(_ value: Bool, _ name: String) -> Bool {
        value || ["1", "true", "yes"].contains(env(name)?.lowercased() ?? "")
    }

    /// The flag's or the environment's integer, checked against `range` (the message names both).
    private func integer(_ value: Int?, _ name: String, option: String, in range: ClosedRange<Int>) throws -> Int? {
        var number = value
        if number == nil, let text = env(name) {
            guard let parsed = Int(text) else {
                throw Self.bad("WEBIMAGE_\(name)=\(text) is not an integer (\(option), \(Self.describe(range)))")
            }
            number = parsed
        }
        guard let number else { return nil }
        guard range.contains(number) else { throw Self.bad("\(option) must be \(Self.describe(range)) (got \(number))") }
        return number
    }

    private func bytes(_ value: String?, _ name: String, option: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = value ?? env(name) else { return nil }
        guard let count = ByteCountArgument(argument: text) else {
            throw Self.bad("\(option) \(text) is not a byte count (\(Self.describe(range)) bytes; K, M, G allowed)")
        }
        guard range.contains(count.bytes) else {
            throw Self.bad("\(option) must be \(Self.describe(range)) bytes (got \(text))")
        }
        return count.bytes
    }

    /// The flag's or the environment's seconds, checked against `range`.
    private func seconds(_ value: Double?, _ name: String, option: String, in range: ClosedRange<Double>) throws -> Duration? {
        var number = value
        if number == nil, let text = env(name) {
            guard let parsed = Double(text) else { throw Self.bad("WEBIMAGE_\(name)=\(text) is not a number of seconds (\(option))") }
            number = parsed
        }
        guard let number else { return nil }
        guard range.contains(number) else {
            let text = { (value: Double) in value == value.rounded() ? String(Int(value)) : String(value) }
            throw Self.bad("\(option) must be between \(text(range.lowerBound)) and \(text(range.upperBound)) seconds (got \(number))")
        }
        return .milliseconds(Int((number * 1000).rounded()))
    }

    static func describe(_ range: ClosedRange<Int>) -> String { "between \(range.lowerBound) and \(range.upperBound)" }

    /// The accepted range of each numeric setting.
    enum Range {
        static let port = 0...65_535
        static let concurrency = 1...1_024
        static let queue = 0...1_000_000
        static let seconds = 0...315_360_000  // ten years of Cache-Control max-age
        static let quality = 1...100
        static let pixels = 1...(1 << 40)
        static let dimension = 1...65_535
        static let cacheBytes = 0...(1 << 50)
        static let sourceBytes = 1...(1 << 40)
        static let memoryBudget = (16 << 20)...(1 << 50)
    }

    static func bad(_ message: String) -> WebImageError {
        WebImageError(.invalidServerConfiguration, message)
    }

    /// `text` as an http(s) URL when it starts with `http://` or `https://`, else as a file path
    /// (`--fallback-image`, `--watermark`).
    static func fileOrWebURL(_ text: String, flag: String) throws -> URL {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text) else { throw bad("\(flag) \(text) is not a URL") }
        return url
    }

    /// The server configuration, or an `invalidServerConfiguration` error naming the bad setting.
    func configuration() throws -> ImageServerConfiguration {
        var configuration = ImageServerConfiguration()
        configuration.host = command.bind ?? env("BIND") ?? env("HOST") ?? "127.0.0.1"
        if let port = try integer(command.port, "PORT", option: "--port", in: Range.port) { configuration.port = port }
        let keys = list(command.key, "KEY")
        let salts = list(command.salt, "SALT")
        guard keys.count == salts.count else { throw Self.bad("give one --salt for each --key (\(keys.count) keys, \(salts.count) salts)") }
        configuration.signingKeys = try zip(keys, salts).map { try URLSigningKey(keyHex: $0, saltHex: $1) }
        configuration.allowsUnsigned = flag(command.allowUnsigned, "ALLOW_UNSIGNED")
        guard !configuration.signingKeys.isEmpty || configuration.allowsUnsigned else {
            throw Self.bad("give --key and --salt (or WEBIMAGE_KEY and WEBIMAGE_SALT), or --allow-unsigned")
        }
        configuration.urlPolicy = try SourcePolicy.make(allow: list(command.allowHost, "ALLOW_HOST"), deny: list(command.denyHost, "DENY_HOST"))
        if let root = command.localRoot ?? env("LOCAL_ROOT") { configuration.localRoot = URL(fileURLWithPath: root, isDirectory: true) }
        do {
            configuration.s3 = try command.s3.configuration(environment: environment, alwaysOn: false, requiringCredentials: true)
        } catch let error as WebImageError {
            throw Self.bad(error.message)
        }
        if let directory = command.cacheDir ?? env("CACHE_DIR") { configuration.cacheDirectory = URL(fileURLWithPath: directory, isDirectory: true) }
        if let url = command.redis ?? env("REDIS") {
            do {
                configuration.redis = try RedisOption.configuration(url: url)
            } catch {
                throw Self.bad("--redis: \(failureMessage(error))")
            }
        }
        do {
            configuration.redisKeys = try RedisOption.keys(parsing: list(command.redisKey, "REDIS_KEY"))
        } catch let error as ValidationError {
            throw Self.bad(error.message)
        }
        if configuration.redis != nil {
            do {
                _ = try configuration.redisKeyring()
            } catch {
                throw Self.bad("--redis needs --redis-key ID:HEX (or WEBIMAGE_REDIS_KEY), or --key and --salt to derive one from: the tier's entries are signed")
            }
        }
        if let value = try bytes(command.maxDiskSize, "MAX_DISK_SIZE", option: "--max-disk-size", in: Range.cacheBytes) {
            configuration.maxDiskCacheBytes = value
        }
        if let value = try bytes(command.memoryCache, "MEMORY_CACHE", option: "--memory-cache", in: Range.cacheBytes) {
            configuration.memoryCacheBytes = value
        }
        if let value = try bytes(command.maxSourceBytes, "MAX_SOURCE_BYTES", option: "--max-source-bytes", in: Range.sourceBytes) {
            configuration.limits.maxSourceBytes = value
        }
        if let value = try integer(command.maxSourcePixels, "MAX_SOURCE_PIXELS", option: "--max-source-pixels", in: Range.pixels) {
            configuration.limits.maxSourcePixels = value
        }
        if let value = try integer(command.maxAnimationPixels, "MAX_ANIMATION_PIXELS", option: "--max-animation-pixels", in: Range.pixels) {
            configuration.limits.maxAnimationPixels = value
        }
        if let value = try integer(
            command.maxResultDimension, "MAX_RESULT_DIMENSION", option: "--max-result-dimension", in: Range.dimension)
        {
            configuration.limits.maxResultDimension = value
        }
        if let value = try seconds(command.timeout, "TIMEOUT", option: "--timeout", in: 0.001...3600) {
            configuration.limits.requestTimeout = value
        }
        if let value = try seconds(command.headerTimeout, "HEADER_TIMEOUT", option: "--header-timeout", in: 0.001...3600) {
            configuration.headerTimeout = value
        }
        if let value = try seconds(command.idleTimeout, "IDLE_TIMEOUT", option: "--idle-timeout", in: 0.001...86_400) {
            configuration.idleTimeout = value
        }
        if let value = try seconds(command.drainDelay, "DRAIN_DELAY", option: "--drain-delay", in: 0...3600) {
            configuration.drainDelay = value
        }
        if let value = try seconds(command.failedSourceTtl, "FAILED_SOURCE_TTL", option: "--failed-source-ttl", in: 0...86_400) {
            configuration.failedSourceTTL = value
        }
        if let value = try integer(command.originRetries, "ORIGIN_RETRIES", option: "--origin-retries", in: 0...10) {
            configuration.originRetries = value
        }
        if let value = try integer(command.concurrency, "CONCURRENCY", option: "--concurrency", in: Range.concurrency) {
            configuration.concurrency = value
        }
        if let value = try integer(command.queue, "QUEUE", option: "--queue", in: Range.queue) { configuration.queueLimit = value }
        if let value = try bytes(command.memoryBudget, "MEMORY_BUDGET", option: "--memory-budget", in: Range.memoryBudget) {
            configuration.memoryBudget = value
        }
        if let value = try integer(command.ttl, "TTL", option: "--ttl", in: Range.seconds) { configuration.cacheMaxAge = value }
        if let value = try integer(command.errorTtl, "ERROR_TTL", option: "--error-ttl", in: Range.seconds) {
            configuration.errorCacheMaxAge = value
        }
        if let value = try integer(command.quality, "QUALITY", option: "--quality", in: Range.quality) { configuration.defaultQuality = value }
        if let text = command.formatQuality ?? env("FORMAT_QUALITY") {
            do {
                configuration.formatQuality = try ProcessingOptions.formatQualities(parsing: text)
            } catch let error as WebImageError {
                throw Self.bad("--format-quality \(text): \(error.message)")
            }
        }
        if let colour = command.colour {
            configuration.colorPolicy = colour.policy
        } else if let text = env("COLOUR") {
            guard let colour = ColourArgument(rawValue: text) else {
                throw Self.bad("WEBIMAGE_COLOUR=\(text) is not srgb, keep or ignore (--colour)")
            }
            configuration.colorPolicy = colour.policy
        }
        for definition in list(command.preset, "PRESET") {
            do {
                try configuration.presets.define(definition)
            } catch let error as WebImageError {
                throw Self.bad("--preset: \(error.message)")
            }
        }
        if let file = command.presetsFile ?? env("PRESETS_FILE") { configuration.presetsFile = URL(fileURLWithPath: file) }
        configuration.onlyPresets = flag(command.onlyPresets, "ONLY_PRESETS")
        // Checked now, so that a bad preset stops the start with its name (exit 2).
        _ = try configuration.loadPresets()
        let coders = ImageCodersManager.standard()
        if let fallback = command.fallbackImage ?? env("FALLBACK_IMAGE") {
            configuration.fallbackImage = try Self.fileOrWebURL(fallback, flag: "--fallback-image")
            try configuration.checkFallbackImage(coders: coders)
        }
        if let metadata = command.metadata {
            configuration.metadataPolicy = metadata.policy
        } else if let text = env("METADATA") {
            guard let metadata = MetadataArgument(rawValue: text) else {
                throw Self.bad("WEBIMAGE_METADATA=\(text) is not strip, copyright, keep or keep-all (--metadata)")
            }
            configuration.metadataPolicy = metadata.policy
        }
        if let watermark = command.watermark ?? env("WATERMARK") {
            configuration.watermark = try Self.fileOrWebURL(watermark, flag: "--watermark")
        }
        if let directory = command.watermarkDir ?? env("WATERMARK_DIR") {
            configuration.watermarkDirectory = URL(fileURLWithPath: directory, isDirectory: true)
        }
        configuration.watermarkAllowHosts = Set(list(command.watermarkAllowHost, "WATERMARK_ALLOW_HOST").map { $0.lowercased() })
        try configuration.checkWatermark(coders: coders)
        configuration.prefersAVIF = !flag(command.noAvif, "NO_AVIF")
        configuration.offersJXL = flag(command.autoJxl, "AUTO_JXL")
        configuration.accessLog = !flag(command.noAccessLog, "NO_ACCESS_LOG")
        configuration.allowsQueryString = flag(command.allowQuery, "ALLOW_QUERY")
        configuration.purgeToken = command.purgeToken ?? env("PURGE_TOKEN")
        if let token = configuration.purgeToken, token.count < 16 {
            throw Self.bad("--purge-token (WEBIMAGE_PURGE_TOKEN) needs at least 16 characters (make one with `openssl rand -hex 32`)")
        }
        return configuration
    }

    /// The log level from `--log-level` or `WEBIMAGE_LOG_LEVEL` (default info).
    func logLevel() throws -> Logger.Level {
        guard let text = command.logLevel ?? env("LOG_LEVEL") else { return .info }
        guard let level = Logger.Level(rawValue: text.lowercased()) else { throw Self.bad("unknown log level '\(text)'") }
        return level
    }
}
