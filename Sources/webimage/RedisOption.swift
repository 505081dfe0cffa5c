import ArgumentParser
import Foundation
import Logging
import WebImageKit
import WebImageRedis

/// `--redis URL` and `--redis-key ID:HEX`: a Redis tier shared by several nodes behind the memory
/// and disk caches, and one origin download per source across them. Its entries are signed, so
/// a key is required (`--redis-key`, else `WEBIMAGE_REDIS_KEY`, a comma-separated list): every
/// node sharing the tier holds the same keys, the first one signs, all verify.
struct RedisOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A shared cache tier on Redis behind memory and disk, with one origin download per source across nodes: redis://[user:password@]host:port[/db] (rediss:// for TLS). Needs --redis-key.",
        valueName: "URL"))
    var redis: String?

    @Option(help: ArgumentHelp(
        "Key signing and verifying the Redis tier's entries, ID:HEX (16 or more bytes, e.g. k1:$(openssl rand -hex 32)); repeat to rotate (the first signs, all verify). Default: WEBIMAGE_REDIS_KEY (comma-separated).",
        valueName: "ID:HEX"))
    var redisKey: [String] = []

    func validate() throws {
        guard let redis else { return }
        do {
            _ = try RedisConfiguration(url: redis)
        } catch {
            throw ValidationError("--redis: \(failureMessage(error))")
        }
        _ = try keyring(environment: ProcessInfo.processInfo.environment)
    }

    /// The configuration and keys `--redis` and `--redis-key` describe (nil without `--redis`).
    var tier: (configuration: RedisConfiguration, keys: RedisEntryKeyring)? {
        guard let configuration = redis.flatMap({ try? Self.configuration(url: $0) }),
            let keys = try? keyring(environment: ProcessInfo.processInfo.environment)
        else { return nil }
        return (configuration, keys)
    }

    /// The keys of `--redis-key`, else of `WEBIMAGE_REDIS_KEY`; a usage error when there are none
    /// or one is malformed (the message never repeats a secret).
    func keyring(environment: [String: String]) throws -> RedisEntryKeyring {
        let texts = redisKey.isEmpty
            ? (environment["WEBIMAGE_REDIS_KEY"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            : redisKey
        guard let keyring = RedisEntryKeyring(try Self.keys(parsing: texts)) else {
            throw ValidationError(
                "--redis needs --redis-key ID:HEX (or WEBIMAGE_REDIS_KEY): the tier's entries are signed with it, and entries that do not verify are ignored")
        }
        return keyring
    }

    /// The keys `texts` write as `ID:HEX` (`fetch` and `serve`); a usage error naming
    /// `--redis-key` when one is malformed (the message never repeats a secret).
    static func keys(parsing texts: [String]) throws -> [RedisEntryKey] {
        try texts.map { text in
            do {
                return try RedisEntryKey(parsing: text)
            } catch {
                throw ValidationError("--redis-key: \(failureMessage(error))")
            }
        }
    }

    /// The configuration of a `--redis` URL (`fetch` and `serve`): short timeouts, because Redis
    /// only ever saves work, so a slow one must not hold requests.
    static func configuration(url: String) throws -> RedisConfiguration {
        var configuration = try RedisConfiguration(url: url)
        configuration.commandTimeout = .milliseconds(500)
        configuration.connectTimeout = .milliseconds(500)
        return configuration
    }
}

extension GlobalOptions {
    /// The Redis tier of a command run: entries kept as long as `--max-age` says (else a week),
    /// outages logged at warning level.
    func redisCache(_ configuration: RedisConfiguration, keys: RedisEntryKeyring) -> RedisImageCache {
        var settings = RedisImageCache.Configuration(namespace: "default")
        settings.maxAge = maxAge.flatMap { $0.seconds < 0 ? nil : .milliseconds(Int64($0.seconds * 1000)) } ?? settings.maxAge
        return RedisImageCache(
            client: RedisClient(configuration: configuration), keys: keys, configuration: settings,
            logger: makeWarningLogger(label: "webimage.redis"))
    }

    /// A logger to standard error at warning level (debug with `--verbose`, errors only with `--quiet`):
    /// the Redis tier's outages are worth a line.
    func makeWarningLogger(label: String) -> Logger {
        var logger = makeLogger(label: label)
        logger.logLevel = verbose ? .debug : quiet ? .error : .warning
        return logger
    }
}
