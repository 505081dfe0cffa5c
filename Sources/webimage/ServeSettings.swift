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

    private func integer(_ value: Int?, _ name: String, option: String) throws -> Int? {
        if let value { return value }
        guard let text = env(name) else { return nil }
        guard let number = Int(text) else { throw Self.bad("WEBIMAGE_\(name)=\(text) is not an integer (\(option))") }
        return number
    }

    private func bytes(_ value: String?, _ name: String, option: String) throws -> Int? {
        guard let text = value ?? env(name) else { return nil }
        guard let count = ByteCountArgument(argument: text) else { throw Self.bad("\(option) \(text) is not a byte count") }
        return count.bytes
    }

    static func bad(_ message: String) -> WebImageError {
        WebImageError(.invalidServerConfiguration, message)
    }

    /// The server configuration, or an `invalidServerConfiguration` error naming the bad setting.
    func configuration() throws -> ImageServerConfiguration {
        var configuration = ImageServerConfiguration()
        configuration.host = command.bind ?? env("BIND") ?? env("HOST") ?? "127.0.0.1"
        if let port = try integer(command.port, "PORT", option: "--port") {
            guard (0...65535).contains(port) else { throw Self.bad("--port \(port) is not 0–65535") }
            configuration.port = port
        }
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
        if let directory = command.cacheDir ?? env("CACHE_DIR") { configuration.cacheDirectory = URL(fileURLWithPath: directory, isDirectory: true) }
        if let url = command.redis ?? env("REDIS") {
            do {
                configuration.redis = try RedisOption.configuration(url: url)
            } catch {
                throw Self.bad("--redis: \(failureMessage(error))")
            }
        }
        if let value = try bytes(command.maxDiskSize, "MAX_DISK_SIZE", option: "--max-disk-size") { configuration.maxDiskCacheBytes = value }
        if let value = try bytes(command.memoryCache, "MEMORY_CACHE", option: "--memory-cache") { configuration.memoryCacheBytes = value }
        if let value = try bytes(command.maxSourceBytes, "MAX_SOURCE_BYTES", option: "--max-source-bytes") { configuration.limits.maxSourceBytes = value }
        if let value = try integer(command.maxSourcePixels, "MAX_SOURCE_PIXELS", option: "--max-source-pixels") { configuration.limits.maxSourcePixels = value }
        if let value = try integer(command.maxAnimationPixels, "MAX_ANIMATION_PIXELS", option: "--max-animation-pixels") {
            configuration.limits.maxAnimationPixels = value
        }
        if let value = try integer(command.maxResultDimension, "MAX_RESULT_DIMENSION", option: "--max-result-dimension") {
            configuration.limits.maxResultDimension = value
        }
        var timeout = command.timeout
        if timeout == nil, let text = env("TIMEOUT") {
            guard let value = Double(text) else { throw Self.bad("WEBIMAGE_TIMEOUT=\(text) is not a number of seconds") }
            timeout = value
        }
        if let seconds = timeout {
            guard seconds > 0, seconds <= 3600 else { throw Self.bad("--timeout must be within 0–3600 seconds") }
            configuration.limits.requestTimeout = .milliseconds(Int(seconds * 1000))
        }
        if let value = try integer(command.concurrency, "CONCURRENCY", option: "--concurrency") {
            guard value >= 1 else { throw Self.bad("--concurrency must be at least 1") }
            configuration.concurrency = value
        }
        if let value = try integer(command.queue, "QUEUE", option: "--queue") {
            guard value >= 0 else { throw Self.bad("--queue must be 0 or more") }
            configuration.queueLimit = value
        }
        if let value = try integer(command.maxAge, "MAX_AGE", option: "--max-age") { configuration.cacheMaxAge = max(0, value) }
        if let value = try integer(command.errorMaxAge, "ERROR_MAX_AGE", option: "--error-max-age") { configuration.errorCacheMaxAge = max(0, value) }
        if let value = try integer(command.quality, "QUALITY", option: "--quality") {
            guard (1...100).contains(value) else { throw Self.bad("--quality must be 1–100") }
            configuration.defaultQuality = value
        }
        configuration.prefersAVIF = !flag(command.noAvif, "NO_AVIF")
        configuration.accessLog = !flag(command.noAccessLog, "NO_ACCESS_LOG")
        for (value, name) in [
            (configuration.limits.maxSourceBytes, "--max-source-bytes"), (configuration.limits.maxSourcePixels, "--max-source-pixels"),
            (configuration.limits.maxAnimationPixels, "--max-animation-pixels"), (configuration.limits.maxResultDimension, "--max-result-dimension"),
        ] where value < 1 {
            throw Self.bad("\(name) must be at least 1")
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
