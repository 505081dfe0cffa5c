import NIOCore
import NIOPosix
import NIOSSL
import WebImage

/// One TCP (or TLS) connection to Redis, handshaken (`HELLO 3`, `AUTH`, `SELECT`), that any
/// number of commands share at once: each is written as it comes and its reply matched in order.
final class RedisConnection: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<RedisCommandHandler>
    let address: String

    private init(channel: any Channel, handler: NIOLoopBound<RedisCommandHandler>, address: String) {
        self.channel = channel
        self.handler = handler
        self.address = address
    }

    /// Whether the connection is still open.
    var isActive: Bool { channel.isActive }

    /// Connects to the configured server and runs the handshake; the handshake's failures (a
    /// wrong password, a database out of range) close the connection and are thrown.
    static func connect(_ configuration: RedisConfiguration, group: any EventLoopGroup) async throws -> RedisConnection {
        let address = "\(configuration.host):\(configuration.port)"
        let sslContext: NIOSSLContext?
        do {
            sslContext = try configuration.tls.map { try NIOSSLContext(configuration: $0) }
        } catch {
            throw WebImageError(.redisUnavailable, "TLS setup for Redis at \(address) failed: \(error)", underlying: SendableErrorText(error))
        }
        let serverName = configuration.tlsServerName ?? configuration.host
        let bootstrap = ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(configuration.connectTimeout.timeAmount)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let sslContext {
                        let hostname = serverName.first?.isNumber == true || serverName.contains(":") ? nil : serverName
                        try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: hostname))
                    }
                    try sync.addHandler(ByteToMessageHandler(RESPValueDecoder(parser: RESPParser(limits: configuration.parserLimits))))
                    try sync.addHandler(MessageToByteHandler(RedisCommandEncoder()))
                    try sync.addHandler(RedisCommandHandler(address: address))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw WebImageError(
                .redisUnavailable, "cannot connect to Redis at \(address): \(error)", underlying: SendableErrorText(error))
        }
        let handler: NIOLoopBound<RedisCommandHandler>
        do {
            handler = try await channel.eventLoop.submit {
                NIOLoopBound(try channel.pipeline.syncOperations.handler(type: RedisCommandHandler.self), eventLoop: channel.eventLoop)
            }.get()
        } catch {
            // The pipeline is gone when the connection closed at once (a failed TLS handshake).
            channel.close(promise: nil)
            throw WebImageError(
                .redisUnavailable, "the connection to Redis at \(address) closed while being set up", underlying: SendableErrorText(error))
        }
        let connection = RedisConnection(channel: channel, handler: handler, address: address)
        do {
            try await connection.handshake(configuration)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private func handshake(_ configuration: RedisConfiguration) async throws {
        let timeout = configuration.commandTimeout
        if configuration.protocolVersion == 3 {
            var arguments: [any RESPArgument] = ["3"]
            if let password = configuration.password { arguments += ["AUTH", configuration.username ?? "default", password] }
            try check(try await send(RedisCommand("HELLO", arguments), timeout: timeout), "HELLO")
        } else if let password = configuration.password {
            let arguments: [any RESPArgument] = configuration.username.map { [$0, password] } ?? [password]
            try check(try await send(RedisCommand("AUTH", arguments), timeout: timeout), "AUTH")
        }
        if configuration.database != 0 {
            try check(try await send(RedisCommand("SELECT", [configuration.database]), timeout: timeout), "SELECT")
        }
    }

    private func check(_ reply: RESPValue, _ command: String) throws {
        if case .error(let message) = reply { throw WebImageError.redisReply(message, command: command) }
    }

    /// Sends one command and waits for its reply (an error reply is returned, not thrown). After
    /// `timeout` without a reply, this command and every other one waiting on the connection fail
    /// with ``WebImageError/Code/timedOut`` and the connection closes.
    func send(_ command: RedisCommand, timeout: Duration?) async throws -> RESPValue {
        try await sendAll([command], timeout: timeout)[0]
    }

    /// Writes `commands` back to back with one flush and waits for all their replies, in order.
    func sendAll(_ commands: [RedisCommand], timeout: Duration?) async throws -> [RESPValue] {
        let loop = channel.eventLoop
        let promises = commands.map { _ in loop.makePromise(of: RESPValue.self) }
        for (command, promise) in zip(commands, promises) {
            channel.write(RedisRequest(command: command, reply: promise), promise: nil)
        }
        channel.flush()
        let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
        if let timeout {
            let handler = self.handler
            let address = self.address
            let name = commands.count == 1 ? commands[0].name : "a pipeline of \(commands.count) commands"
            let timer = loop.scheduleTask(in: timeout.timeAmount) {
                let error = WebImageError(.timedOut, "Redis at \(address) did not answer \(name) within \(timeout)")
                for promise in promises { promise.fail(error) }
                if let context = try? handler.value.contextForFailure(channel: self.channel) {
                    handler.value.fail(context: context, error)
                } else {
                    self.channel.close(promise: nil)
                }
            }
            all.whenComplete { _ in timer.cancel() }
        }
        return try await all.get()
    }

    /// Closes the connection; waiting commands fail.
    func close() {
        channel.close(promise: nil)
    }
}

extension RedisCommandHandler {
    /// This handler's context in `channel`'s pipeline (on the event loop).
    func contextForFailure(channel: any Channel) throws -> ChannelHandlerContext {
        try channel.pipeline.syncOperations.context(handlerType: RedisCommandHandler.self)
    }
}

extension Duration {
    /// The duration as a NIO `TimeAmount` (nanoseconds, saturating).
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return .nanoseconds(nanos.overflow ? .max : nanos.partialValue + attoseconds / 1_000_000_000)
    }
}
