import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

/// A running service on 127.0.0.1 (port 0) with the loopback test server as its origin, and an
/// HTTP client to ask it.
struct ServiceHarness {
    let origin: LoopbackHTTPServer
    let server: ImageServer
    let port: Int
    let runner: Task<Void, any Error>
    let client: HTTPClient

    /// The key and salt the harness signs with (hex of "secret-key" / "salty").
    static let key = try! URLSigningKey(keyHex: "7365637265742d6b6579", saltHex: "73616c7479")

    static func start(
        origin existing: LoopbackHTTPServer? = nil, logger: Logger = Logger(label: "WebImage.Server"),
        configure: (inout ImageServerConfiguration) -> Void = { _ in }
    ) async throws -> ServiceHarness {
        let origin: LoopbackHTTPServer
        if let existing { origin = existing } else { origin = try await LoopbackHTTPServer.start() }
        var configuration = ImageServerConfiguration()
        configuration.port = 0
        configuration.signingKeys = [key]
        configuration.accessLog = false
        configuration.concurrency = 2
        // The tests allowlist their own loopback origin through the SSRF guard.
        configuration.urlPolicy = .ssrfGuard(allowHosts: [try HostPattern("127.0.0.1")])
        // Debug builds on a busy machine are slow; only the timeout test sets a short deadline.
        configuration.limits.requestTimeout = .seconds(600)
        configuration.drainDelay = .zero
        configure(&configuration)
        let server = try ImageServer(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let runner = Task {
            try await server.run(gracefulShutdownSignals: []) { port in
                continuation.yield(port)
                continuation.finish()
            }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return ServiceHarness(origin: origin, server: server, port: port, runner: runner, client: makeClient())
    }

    /// A client that opens as many connections as the tests send requests at once.
    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)
        configuration.timeout = .init(connect: .seconds(30), read: .seconds(60))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// A response as the test sees it.
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    /// `method` of `path`, answered within `timeout` (60 s: long renders on loaded CI cores ask for more).
    func request(
        _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], timeout: TimeAmount = .seconds(60)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 64 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(body.readableBytesView))
    }

    /// `GET` of a signed image URL: `options` then the origin's `originPath` as a plain source.
    func image(
        _ options: String, _ originPath: String, ext: String? = nil, headers: [(String, String)] = [],
        timeout: TimeAmount = .seconds(60)
    ) async throws -> Answer {
        try await request(Self.signed(options, source: origin.url(originPath).absoluteString, ext: ext), headers: headers, timeout: timeout)
    }

    /// `/{signature}/{options}/plain/{percent-encoded source}[@ext]`, signed with ``key``.
    static func signed(_ options: String, source: String, ext: String? = nil, key: URLSigningKey = key) -> String {
        let path = unsignedPath(options, source: source, ext: ext)
        return "/" + key.signature(for: path) + path
    }

    static func unsignedPath(_ options: String, source: String, ext: String? = nil) -> String {
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return (options.isEmpty ? "" : "/" + options) + "/plain/" + encoded + (ext.map { "@" + $0 } ?? "")
    }

    /// Closes the client's connections first (a graceful shutdown waits for open keep-alive
    /// connections), then shuts the service down and waits for it.
    func stop() async throws {
        try await client.shutdown()
        await server.shutdown()
        try await runner.value
        await origin.shutdown()
    }

    /// Runs `body` with a started harness, stopping it afterwards whatever happens.
    static func with(
        origin: LoopbackHTTPServer? = nil, logger: Logger = Logger(label: "WebImage.Server"),
        configure: (inout ImageServerConfiguration) -> Void = { _ in },
        _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let harness = try await start(origin: origin, logger: logger, configure: configure)
        do {
            try await body(harness)
        } catch {
            try? await harness.stop()
            throw error
        }
        try await harness.stop()
    }
}

/// Fixture images made by our own encoders.
enum Fixtures {
    static let coders = ImageCodersManager.standard()

    /// An 800×600 opaque gradient as JPEG.
    static let jpeg: Data = try! coders.encode(
        Image(pixels: ImageFixtures.gradient(width: 800, height: 600), format: .jpeg), as: .jpeg, options: ImageEncodingOptions(quality: 0.9))

    /// A 300×200 translucent gradient as PNG.
    static let png: Data = try! coders.encode(
        Image(pixels: ImageFixtures.translucentGradient(width: 300, height: 200), format: .png), as: .png, options: ImageEncodingOptions())

    /// The header of encoded bytes.
    static func header(_ data: Data) throws -> ImageHeader { try coders.readHeader(data) }
}
