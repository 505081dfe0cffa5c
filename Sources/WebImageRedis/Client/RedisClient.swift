public import NIOCore
import NIOPosix
import Synchronization
import WebImage

/// A small Redis client over SwiftNIO: a pool of pipelined connections, per-command timeouts,
/// reconnect with backoff, `AUTH`, `SELECT`, RESP2 or RESP3, optional TLS.
///
/// Connections open on first use. Commands are spread round-robin over up to
/// ``RedisConfiguration/maxConnections`` connections, and any number may be in flight on each:
/// replies are matched in order. A connection that closes (server restart, timeout) is replaced on
/// the next command; a failed connect makes commands fail at once with
/// ``WebImageError/Code/redisUnavailable`` until the backoff delay has passed.
///
/// ```swift
/// let client = RedisClient(configuration: try RedisConfiguration(url: "redis://127.0.0.1:6379"))
/// try await client.send("SET", "greeting", "hello")
/// let value = try await client.send("GET", "greeting").string        // "hello"
/// let replies = try await client.pipeline((0..<100).map { RedisCommand("INCR", ["n\($0)"]) })
/// await client.close()
/// ```
public final class RedisClient: Sendable {
    /// What the client connects to and how.
    public let configuration: RedisConfiguration
    private let group: any EventLoopGroup
    private let state: Mutex<PoolState>
    private let clock = ContinuousClock()

    /// A client for `configuration`, on NIO's shared event loop group unless one is given.
    public init(configuration: RedisConfiguration, group: (any EventLoopGroup)? = nil) {
        self.configuration = configuration
        self.group = group ?? MultiThreadedEventLoopGroup.singleton
        self.state = Mutex(PoolState(slots: max(1, configuration.maxConnections)))
    }

    /// Sends a command and returns its reply; an error reply throws ``WebImageError/Code/redisError``.
    @discardableResult
    public func send(_ name: String, _ arguments: any RESPArgument...) async throws -> RESPValue {
        try await send(RedisCommand(name, arguments))
    }

    /// Sends `command` and returns its reply; an error reply throws ``WebImageError/Code/redisError``.
    @discardableResult
    public func send(_ command: RedisCommand) async throws -> RESPValue {
        let reply = try await connection().send(command, timeout: configuration.commandTimeout)
        if case .error(let message) = reply { throw WebImageError.redisReply(message, command: command.name) }
        return reply
    }

    /// Sends `commands` back to back on one connection and returns every reply in order; error
    /// replies come back as ``RESPValue/error(_:)`` (one failing command does not hide the others).
    public func pipeline(_ commands: [RedisCommand]) async throws -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        return try await connection().sendAll(commands, timeout: configuration.commandTimeout)
    }

    /// Closes every connection; later commands open new ones.
    public func close() async {
        let slots = state.withLock { state in
            defer { state.slots = Array(repeating: .empty, count: state.slots.count) }
            return state.slots
        }
        for slot in slots {
            switch slot {
            case .ready(let connection): try? await connection.channel.close()
            case .connecting(let task): try? await task.value.channel.close()
            case .empty: break
            }
        }
    }

    /// The next slot's connection, opened (or reopened) when it is missing or closed. Callers that
    /// find a slot connecting wait for that one connect.
    private func connection() async throws -> RedisConnection {
        let now = clock.now
        let pick: Slot = try state.withLock { state in
            let index = state.next
            state.next = (state.next + 1) % state.slots.count
            switch state.slots[index] {
            case .ready(let connection) where connection.isActive:
                return .ready(connection)
            case .connecting(let task):
                return .connecting(task)
            case .ready, .empty:
                if let retryAt = state.retryAt, now < retryAt {
                    throw WebImageError(
                        .redisUnavailable,
                        "Redis at \(configuration.redactedURL) is unreachable; next reconnect in \(retryAt - now)")
                }
                let task = Task { try await self.open(slot: index) }
                state.slots[index] = .connecting(task)
                return .connecting(task)
            }
        }
        switch pick {
        case .ready(let connection): return connection
        case .connecting(let task): return try await task.value
        case .empty: preconditionFailure("a slot is never picked empty")
        }
    }

    /// Connects for `slot`, recording the result: the connection, or a failure that starts (or
    /// lengthens) the backoff.
    private func open(slot: Int) async throws -> RedisConnection {
        do {
            let connection = try await RedisConnection.connect(configuration, group: group)
            state.withLock { state in
                state.failures = 0
                state.retryAt = nil
                state.slots[slot] = .ready(connection)
            }
            return connection
        } catch {
            state.withLock { state in
                state.slots[slot] = .empty
                guard let error = error as? WebImageError, error.code == .redisUnavailable || error.code == .timedOut else { return }
                state.failures += 1
                let doubled = configuration.reconnectDelay * (1 << min(state.failures - 1, 20))
                state.retryAt = clock.now + min(doubled, configuration.maxReconnectDelay)
            }
            throw error
        }
    }
}

/// One connection of the pool.
private enum Slot {
    case empty
    case connecting(Task<RedisConnection, any Error>)
    case ready(RedisConnection)
}

/// The pool: one slot per connection, the round-robin cursor and the reconnect backoff.
private struct PoolState {
    var slots: [Slot]
    var next = 0
    var failures = 0
    var retryAt: ContinuousClock.Instant?

    init(slots: Int) { self.slots = Array(repeating: .empty, count: slots) }
}
