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
}

/// A Redis error reply, carried as the `underlying` error of a ``WebImageError/Code/redisError``.
public struct RedisServerError: Error, Sendable, Hashable {
    /// The full error line (`WRONGPASS invalid username-password pair …`).
    public var message: String
    /// Its first word (`ERR`, `WRONGPASS`, `NOSCRIPT`, `BUSY`, …).
    public var prefix: String { String(message.prefix { $0 != " " }) }

    /// An error reply's text.
    public init(message: String) { self.message = message }
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
