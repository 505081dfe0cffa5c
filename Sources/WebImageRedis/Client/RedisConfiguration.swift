import Foundation
public import NIOSSL
import WebImage

/// Where a ``RedisClient`` connects and how: server, credentials, database, TLS, pool size,
/// timeouts and reconnect backoff.
///
/// ```swift
/// var configuration = try RedisConfiguration(url: "redis://app:secret@127.0.0.1:6380/2")
/// configuration.commandTimeout = .milliseconds(250)
/// let client = RedisClient(configuration: configuration)
/// ```
public struct RedisConfiguration: Sendable {
    /// The server's host name or address.
    public var host: String
    /// The server's port (default 6379).
    public var port: Int
    /// The ACL user for `AUTH user password` / `HELLO 3 AUTH`; `nil` with a password: `AUTH password`.
    public var username: String?
    /// The password; `nil`: no `AUTH`.
    public var password: String?
    /// The database `SELECT`ed on every connection (default 0).
    public var database: Int
    /// TLS settings (`rediss://`); `nil`: plain TCP.
    public var tls: TLSConfiguration?
    /// The name the server's certificate must carry, when it is not ``host``.
    public var tlsServerName: String?
    /// 2 (RESP2, the default) or 3 (`HELLO 3` on connect: RESP3 replies such as maps and doubles).
    public var protocolVersion: Int = 2
    /// How many connections the pool opens at most; commands are spread over them and pipelined
    /// on each (default 2).
    public var maxConnections: Int = 2
    /// How long to wait for a connection (default 2 s).
    public var connectTimeout: Duration = .seconds(2)
    /// How long a command waits for its reply before failing with ``WebImageError/Code/timedOut``
    /// (and its connection is closed); `nil`: forever. Default 2 s.
    public var commandTimeout: Duration? = .seconds(2)
    /// The wait before the first reconnect after a failed connect; it doubles with each further
    /// failure up to ``maxReconnectDelay``. Meanwhile commands fail at once with
    /// ``WebImageError/Code/redisUnavailable``.
    public var reconnectDelay: Duration = .milliseconds(100)
    /// The longest wait between two reconnects (default 5 s).
    public var maxReconnectDelay: Duration = .seconds(5)
    /// What the RESP parser accepts (bulk size, nesting depth).
    var parserLimits = RESPParser.Limits()

    /// A configuration for `host:port` with no credentials, database 0, plain TCP.
    public init(host: String = "127.0.0.1", port: Int = 6379, username: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// Parses `redis://[[user]:password@]host[:port][/db]` or `rediss://…` (TLS with the system's
    /// trust roots). User and password are percent-decoded; `:password@` alone means `AUTH password`,
    /// and so does a user-info without a colon. Anything else throws ``WebImageError/Code/invalidURL``.
    ///
    /// ```swift
    /// let local = try RedisConfiguration(url: "redis://127.0.0.1:6379/0")
    /// let secure = try RedisConfiguration(url: "rediss://:pw@cache.internal:6380")
    /// ```
    public init(url string: String) throws {
        func invalid(_ reason: String) -> WebImageError { WebImageError(.invalidURL, "Redis URL `\(string)`: \(reason)") }
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased() else {
            throw invalid("not a URL")
        }
        guard scheme == "redis" || scheme == "rediss" else { throw invalid("the scheme must be redis or rediss") }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
        let port = components.port ?? 6379
        guard (1...65535).contains(port) else { throw invalid("port \(port) out of range") }
        var database = 0
        let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        if !path.isEmpty {
            guard let number = Int(path), number >= 0 else { throw invalid("the path must be a database number") }
            database = number
        }
        var username = components.user?.removingPercentEncoding
        var password = components.password?.removingPercentEncoding
        if password == nil, let user = username {
            password = user
            username = nil
        }
        if username?.isEmpty == true { username = nil }
        self.init(host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port,
                  username: username, password: password, database: database)
        if scheme == "rediss" { tls = TLSConfiguration.makeClientConfiguration() }
    }

    /// `redis(s)://host:port/db` with the password left out, for logs and messages.
    public var redactedURL: String {
        let user = username.map { "\($0):***@" } ?? (password != nil ? ":***@" : "")
        return "\(tls == nil ? "redis" : "rediss")://\(user)\(host):\(port)/\(database)"
    }
}
