import ArgumentParser
import Foundation
import Logging
import WebImageKit
import WebImageRedis

/// `--redis URL`: a Redis tier shared by several nodes behind the memory and disk caches, and one
/// origin download per source across them.
struct RedisOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A shared cache tier on Redis behind memory and disk, with one origin download per source across nodes: redis://[user:password@]host:port[/db] (rediss:// for TLS).",
        valueName: "URL"))
    var redis: String?

    func validate() throws {
        guard let redis else { return }
        do {
            _ = try RedisConfiguration(url: redis)
        } catch {
            throw ValidationError("--redis: \(failureMessage(error))")
        }
    }

    /// The configuration `--redis` describes.
    var configuration: RedisConfiguration? { redis.flatMap { try? Self.configuration(url: $0) } }

    /// The configuration of a `--redis` URL (`fetch` and `serve`): short timeouts, because Redis
    /// only ever saves work, so a slow one must not hold requests.
    static func configuration(url: String) throws -> RedisConfiguration {
        var configuration = try RedisConfiguration(url: url)
        configuration.commandTimeout = .milliseconds(500)
        configuration.connectTimeout = .milliseconds(500)
        return configuration
    }
}

/// The Redis tier of a session: the cache and the loader wrapper over one client.
struct RedisTier: Sendable {
    let cache: RedisImageCache

    init(configuration: RedisConfiguration, global: GlobalOptions) {
        var settings = RedisImageCache.Configuration(namespace: "default")
        settings.maxAge = global.maxAge.flatMap { $0.seconds < 0 ? nil : .milliseconds(Int64($0.seconds * 1000)) }
            ?? settings.maxAge
        cache = RedisImageCache(
            client: RedisClient(configuration: configuration), configuration: settings,
            logger: global.makeWarningLogger(label: "webimage.redis"))
    }

    /// `loader` wrapped so that nodes sharing this Redis download each source once.
    func coordinating(_ loader: any ImageLoading) -> any ImageLoading {
        RedisCoordinatedLoader(wrapping: loader, cache: cache)
    }

    /// `disk` in front of Redis, or Redis alone.
    func dataTier(behind disk: DiskCache?) -> any ImageDataCaching {
        disk.map { PromotingDataCache(near: $0, far: cache) } ?? cache
    }
}

extension GlobalOptions {
    /// A logger to standard error at warning level (debug with `--verbose`, errors only with `--quiet`):
    /// the Redis tier's outages are worth a line.
    func makeWarningLogger(label: String) -> Logger {
        var logger = makeLogger(label: label)
        logger.logLevel = verbose ? .debug : quiet ? .error : .warning
        return logger
    }
}
