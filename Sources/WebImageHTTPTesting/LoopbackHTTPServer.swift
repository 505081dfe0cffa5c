public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A scripted HTTP/1.1 server on 127.0.0.1 (or another local address) and an ephemeral port, for
/// loader tests and benchmarks.
///
/// Each path gets a handler that sees the ``RecordedRequest`` and returns a ``TestResponse``
/// (status, headers, body steps with pauses, gates, a close or a hang). The server records
/// every request and how each response ended, and lets a test wait for a condition on that log
/// instead of sleeping. Unknown paths answer `404`. `start(tls: .selfSigned)` serves HTTPS with a
/// certificate made at runtime (``certificate``) that no client trusts by default.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start()
/// server.route("/a.png", response: .ok(pngBytes))
/// // … load server.url("/a.png") …
/// #expect(server.requestCount("/a.png") == 1)
/// await server.shutdown()
/// ```
public final class LoopbackHTTPServer: Sendable {
    typealias Handler = @Sendable (RecordedRequest) async -> TestResponse

    private struct State {
        var routes: [String: Handler] = [:]
        var log = ServerLog()
        var waiters: [(condition: @Sendable (ServerLog) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// How the server secures its connections.
    public enum TLSMode: Sendable {
        /// HTTPS with a fresh ``SelfSignedCertificate`` for 127.0.0.1.
        case selfSigned
    }

    /// The port the server listens on.
    public let port: Int
    /// The address the server listens on: `127.0.0.1` unless `start(tls:host:)` chose another.
    public let host: String
    /// The certificate an HTTPS server presents (nil for plain HTTP).
    public let certificate: SelfSignedCertificate?
    private let state: Mutex<State>
    private let serverChannel: any Channel
    private let acceptTask: Mutex<Task<Void, Never>?>
    private let connections: AcceptedConnections

    private init(
        host: String, port: Int, certificate: SelfSignedCertificate?, serverChannel: any Channel, connections: AcceptedConnections
    ) {
        self.host = host
        self.port = port
        self.certificate = certificate
        self.serverChannel = serverChannel
        self.state = Mutex(State())
        self.acceptTask = Mutex(nil)
        self.connections = connections
    }

    /// Starts a server on `host` (127.0.0.1 by default; `::1` for IPv6 loopback) and a free port:
    /// plain HTTP, or HTTPS when `tls` is set.
    public static func start(tls: TLSMode? = nil, host: String = "127.0.0.1") async throws -> LoopbackHTTPServer {
        let certificate = try tls.map { _ in try SelfSignedCertificate.make() }
        let context = try certificate?.serverContext()
        let connections = AcceptedConnections()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try connections.wrap(channel)
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            throw ChannelError.unknownLocalAddress
        }
        let server = LoopbackHTTPServer(
            host: host, port: port, certificate: certificate, serverChannel: listener.channel, connections: connections)
        let task = Task<Void, Never>(executorPreference: LoopbackExecutor.shared) {
            try? await listener.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        group.addTask { await server.serve(connection) }
                    }
                }
            }
        }
        server.acceptTask.withLock { $0 = task }
        return server
    }

    /// `http://127.0.0.1:<port>` (`http://[::1]:<port>` on IPv6), or `https://…` for a TLS server.
    public var baseURL: URL {
        let authority = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(certificate == nil ? "http" : "https")://\(authority):\(port)")!
    }

    /// The URL of a path on this server (`path` starts with `/`).
    public func url(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }

    /// Answers `path` with whatever `handler` returns for each request.
    public func route(_ path: String, _ handler: @escaping @Sendable (RecordedRequest) async -> TestResponse) {
        state.withLock { $0.routes[path] = handler }
    }

    /// Answers `path` with `response` every time.
    public func route(_ path: String, response: TestResponse) {
        route(path) { _ in response }
    }

    /// What the server has seen so far.
    public var log: ServerLog { state.withLock { $0.log } }

    /// Requests received for `path`.
    public func requestCount(_ path: String) -> Int { log.count(path) }

    /// Waits until `condition` holds for the log (checked now and after every change).
    public func waitUntil(_ condition: @escaping @Sendable (ServerLog) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if condition(state.log) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits until `path` has received `count` requests.
    public func waitForRequests(_ path: String, count: Int = 1) async {
        await waitUntil { $0.count(path) >= count }
    }

    /// Stops accepting, ends every connection and script.
    public func shutdown() async {
        connections.stop()
        let task = acceptTask.withLock { $0 }
        task?.cancel()
        try? await serverChannel.close()
        await task?.value
        // Connections accepted as the accept loop stopped never reached it: close them here.
        for connection in connections.takeAll() {
            try? await connection.executeThenClose { _, _ in }
        }
    }

    private func updateLog(_ change: (inout ServerLog) -> Void) {
        let ready = state.withLock { state in
            change(&state.log)
            let log = state.log
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(log) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    private func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>) async {
        let channel = connection.channel
        connections.take(channel)
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = Data()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body = Data()
                case .body(let buffer):
                    body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    guard let requestHead = head else { continue }
                    let keepOpen = try await respond(to: requestHead, body: body, channel: channel, outbound: outbound)
                    if !keepOpen { return }
                }
            }
        }
    }

    /// Records the request, plays its script; returns whether the connection stays open.
    private func respond(
        to head: HTTPRequestHead, body: Data, channel: any Channel,
        outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws -> Bool {
        let path = String(head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        var recorded: RecordedRequest!
        let handler = state.withLock { state -> Handler? in
            recorded = RecordedRequest(
                index: state.log.requests.count, method: head.method.rawValue, path: path, target: head.uri,
                headers: head.headers.map { ($0.name, $0.value) }, body: body)
            return state.routes[path]
        }
        updateLog { $0.requests.append(recorded) }
        let response = await handler?(recorded) ?? .status(404, "no route for \(path)")
        let script = Task(executorPreference: LoopbackExecutor.shared) { try await Self.play(response, outbound: outbound) }
        channel.closeFuture.whenComplete { _ in script.cancel() }
        let outcome: ResponseOutcome
        do {
            let completed = try await withTaskCancellationHandler {
                try await script.value
            } onCancel: {
                script.cancel()
            }
            outcome = completed ? .completed : .closedByServer
        } catch {
            outcome = .clientDisconnected
        }
        updateLog { $0.outcomes.append((path, outcome)) }
        if outcome != .completed { return false }
        return head.isKeepAlive
    }

    /// Writes the head and plays the steps; returns false when a close step ended it.
    private static func play(
        _ response: TestResponse, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws -> Bool {
        for step in response.beforeHead {
            switch step {
            case .pause(let duration): try await Task.sleep(for: duration)
            case .wait(let gate): try await gate.pass()
            case .hang: while true { try await Task.sleep(for: .seconds(3600)) }
            case .close: return false
            case .bytes: break
            }
        }
        var headers = HTTPHeaders(response.headers)
        switch response.length {
        case .automatic where !response.endsEarly:
            headers.replaceOrAdd(name: "Content-Length", value: String(response.byteCount))
        case .declared(let length):
            headers.replaceOrAdd(name: "Content-Length", value: String(length))
        default:
            break
        }
        try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: response.status), headers: headers)))
        for step in response.body {
            switch step {
            case .bytes(let buffer):
                try await outbound.write(.body(.byteBuffer(buffer)))
            case .pause(let duration):
                try await Task.sleep(for: duration)
            case .wait(let gate):
                try await gate.pass()
            case .close:
                return false
            case .hang:
                while true { try await Task.sleep(for: .seconds(3600)) }
            }
        }
        try await outbound.write(.end(nil))
        return true
    }
}

/// Every accepted connection from the moment it is wrapped until a server task takes it over.
///
/// NIO traps when an `NIOAsyncChannel` is dropped without `executeThenClose` ("Deinited
/// NIOAsyncWriter without calling finish()"), and a connection accepted while the accept loop
/// stops is dropped by the loop's inbound stream. Holding each one here keeps it alive until
/// ``LoopbackHTTPServer/shutdown()`` closes those no task took; after ``stop()`` new connections
/// are refused in the channel initializer, so none is ever wrapped and lost.
private final class AcceptedConnections: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

    private struct State {
        var stopped = false
        var waiting: [ObjectIdentifier: Connection] = [:]
    }

    private let state = Mutex(State())

    /// Wraps a new connection's channel (on its event loop) and holds it; throws once stopped,
    /// which makes NIO close the channel.
    func wrap(_ channel: any Channel) throws -> Connection {
        try state.withLock { state in
            guard !state.stopped else { throw ChannelError.ioOnClosedChannel }
            let connection = try Connection(wrappingChannelSynchronously: channel)
            state.waiting[ObjectIdentifier(channel)] = connection
            return connection
        }
    }

    /// A server task took the connection over (and will close it).
    func take(_ channel: any Channel) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// No connection is accepted from now on.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// The connections no task took, which the caller must close.
    func takeAll() -> [Connection] {
        state.withLock { state in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
    }
}
