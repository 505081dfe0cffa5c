public import WebImage

extension WebImageError.Code {
    /// The Redis server answered a command with an error reply (`-ERR …`, `-WRONGPASS …`); the
    /// message carries the server's text and `underlying` a ``RedisServerError``.
    public static let redisError = WebImageError.Code(rawValue: "redisError")
    /// The bytes from a Redis server are not valid RESP (or exceed the parser's limits); the
    /// connection is closed.
    public static let redisProtocol = WebImageError.Code(rawValue: "redisProtocol")
    /// Redis cannot be reached: connection refused or lost, reconnecting after a failure, or the
    /// circuit breaker is open.
    public static let redisUnavailable = WebImageError.Code(rawValue: "redisUnavailable")
    /// A key for signing Redis entries (``RedisEntryKey``) is malformed: an id that is not 1 to 32
    /// characters of `A–Z a–z 0–9 . _ -`, a secret that is not hex or is under 16 bytes.
    public static let invalidRedisEntryKey = WebImageError.Code(rawValue: "invalidRedisEntryKey")
}

/// A Redis error reply, carried as the `underlying` error of a ``WebImageError/Code/redisError``.
public struct RedisServerError: Error, Sendable, Hashable {
    /// The full error line (`WRONGPASS invalid username-password pair …`).
    public var message: String
    /// Its first word (`ERR`, `WRONGPASS`, `NOSCRIPT`, `BUSY`, …).
    public var prefix: String { String(message.prefix { $0 != " " }) }

    /// An error reply's text.
    public init(message: String) { self.message = message }

    /// Whether the server refused for want of credentials: `NOAUTH` (a password is required and
    /// none was given), `WRONGPASS` (a wrong password or user), a command too long for a client
    /// that has not authenticated (`ERR Protocol error: unauthenticated multibulk length`, Redis 7),
    /// or a password given to a server that has none (`ERR AUTH … called without any password
    /// configured`, older servers' `ERR invalid password`).
    public var isAuthenticationFailure: Bool {
        switch prefix {
        case "NOAUTH", "WRONGPASS":
            return true
        case "ERR":
            return ["ERR AUTH ", "ERR invalid password", "ERR Protocol error: unauthenticated"].contains { message.hasPrefix($0) }
        default:
            return false
        }
    }
}

extension WebImageError {
    /// A `redisError` for the server's error line.
    static func redisReply(_ message: String, command: String) -> WebImageError {
        WebImageError(.redisError, "Redis \(command): \(message)", underlying: RedisServerError(message: message))
    }

    /// A `redisProtocol` error.
    static func redisProtocol(_ message: String) -> WebImageError {
        WebImageError(.redisProtocol, "Redis protocol: \(message)")
    }

    /// The server's error reply, when this is a ``WebImageError/Code/redisError``.
    public var redisServerError: RedisServerError? { underlying as? RedisServerError }
}
