import AsyncHTTPClient
import Foundation
import NIOSSL
import Testing
import WebImage
import WebImageHTTPTesting

@testable import WebImageHTTP

/// HTTPS against a loopback server whose certificate is made at runtime and trusted by nobody.
///
/// The loader does not retry connection establishment, so a refused certificate fails at once
/// with the handshake's error. Timeouts stay generous: under a loaded debug build the first
/// verifying handshake (loading the system trust store in an unoptimised BoringSSL) can take
/// seconds.
@Suite("HTTP loader: TLS and invalid certificates", .timeLimit(.minutes(3)))
struct HTTPTLSTests {
    /// A strict request for `url` (certificates verified).
    private func strict(_ url: URL) -> ImageLoad.Request {
        var request = ImageLoad.Request(url: url)
        request.timeout = .seconds(60)
        return request
    }

    /// Runs `body` with a fresh HTTPS loopback server and a loader, and shuts both down.
    private func withTLSServerAndLoader(
        _ configure: (inout HTTPImageLoaderConfiguration) -> Void = { _ in },
        _ body: (LoopbackHTTPServer, HTTPImageLoader) async throws -> Void
    ) async throws {
        try await valueWithServerAndLoader(tls: .selfSigned, configuring: { configuration, _ in
            configuration.timeout = .seconds(60)
            configuration.readTimeout = HTTPImageLoaderConfiguration().readTimeout
            configure(&configuration)
        }, body)
    }

    @Test func theServerSpeaksHTTPSWithACertificateMadeNow() async throws {
        let server = try await LoopbackHTTPServer.start(tls: .selfSigned)
        let plain = try await LoopbackHTTPServer.start()
        let urls = (server.baseURL, server.url("/a.png"), plain.url("/a.png"))
        let certificate = server.certificate
        await server.shutdown()
        await plain.shutdown()
        #expect(urls.0.absoluteString == "https://127.0.0.1:\(server.port)")
        #expect(urls.1.absoluteString == "https://127.0.0.1:\(server.port)/a.png")
        #expect(urls.2.scheme == "http")
        #expect(plain.certificate == nil)
        let made = try #require(certificate)
        #expect(made.pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let parsed = try NIOSSLCertificate(bytes: made.derBytes, format: .der)
        #expect(try NIOSSLCertificate(bytes: Array(made.pem.utf8), format: .pem) == parsed)
        let now = Int(Date().timeIntervalSince1970)
        #expect((now - 3_700...now - 3_500).contains(Int(parsed.notValidBefore)))
        #expect((now + 86_300...now + 86_500).contains(Int(parsed.notValidAfter)))
    }

    @Test func aDefaultLoaderRefusesTheSelfSignedCertificateWithATypedError() async throws {
        try await withTLSServerAndLoader { server, loader in
            server.route("/a.png", response: .ok(testBytes(500)))
            let url = server.url("/a.png")
            let error = try #require(await loadError(loader.load(strict(url))))
            #expect(error.code == .networkError)
            #expect(error.message.contains("TLS"))
            // The failed-URL rule treats it like any network failure: not blocked (SDWebImage
            // would block an untrusted certificate).
            #expect(!loader.shouldBlockFailedURL(url, error: error))
            #expect(server.requestCount("/a.png") == 0)
        }
    }

    @Test func aClientThatTrustsTheCertificateVerifiesIt() async throws {
        let server = try await LoopbackHTTPServer.start(tls: .selfSigned)
        let certificate = try #require(server.certificate)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: certificate.derBytes, format: .der)])
        var settings = HTTPClient.Configuration()
        settings.tlsConfiguration = tls
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
        let loader = HTTPImageLoader(client: client)
        server.route("/a.png", response: .ok(testBytes(700)))
        let result = await outcome { try await loader.load(ImageLoad.Request(url: server.url("/a.png"))).result() }
        try await loader.shutdown()
        try await client.shutdown()
        await server.shutdown()
        #expect(try result.get().data == testBytes(700))
    }

    @Test func theConfigurationFlagAcceptsTheCertificate() async throws {
        try await withTLSServerAndLoader({ $0.acceptsInvalidCertificates = true }) { server, loader in
            server.route("/a.png", response: .ok(testBytes(2_000)))
            let result = try await loader.load(ImageLoad.Request(url: server.url("/a.png"))).result()
            #expect(result.data == testBytes(2_000))
            #expect(result.response.statusCode == 200)
            // A lenient loader needs no second client for a lenient request.
            var request = ImageLoad.Request(url: server.url("/a.png"))
            request.allowsInvalidCertificates = true
            #expect(try await loader.load(request).result().data == testBytes(2_000))
            #expect(loader.state.withLock { $0.lenientClient == nil })
        }
    }

    @Test func aLenientRequestSucceedsWhileAStrictOneForTheSameURLFails() async throws {
        try await withTLSServerAndLoader { server, loader in
            let gate = TestGate()
            server.route("/a.png", response: parked(testBytes(3_000), at: gate))
            let url = server.url("/a.png")
            var lenient = ImageLoad.Request(url: url)
            lenient.allowsInvalidCertificates = true
            #expect(loader.state.withLock { $0.lenientClient == nil })
            let lenientTask = loader.load(lenient)
            // The lenient download stays in flight (parked at the gate); a strict caller must not join it.
            let strictTask = loader.load(strict(url))
            let separate = loader.runningDownloadCount == 2
            #expect(separate)
            if !separate { gate.open() }  // a shared download must fail the test, not hang it
            let strictError = await loadError(strictTask)
            #expect(strictError?.code == .networkError)
            #expect(loader.state.withLock { $0.lenientClient != nil })
            gate.open()
            let data = try await lenientTask.result().data
            #expect(data == testBytes(3_000))
            #expect(server.requestCount("/a.png") == 1)
        }
    }

    @Test func strictAndLenientCallersNeverShareADownload() async throws {
        // A loader over a client that trusts the certificate: both kinds succeed, so the count
        // of requests shows whether they shared.
        let server = try await LoopbackHTTPServer.start(tls: .selfSigned)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: try #require(server.certificate).derBytes, format: .der)])
        var settings = HTTPClient.Configuration()
        settings.tlsConfiguration = tls
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
        let loader = HTTPImageLoader(client: client)
        let gate = TestGate()
        server.route("/a.png", response: parked(testBytes(1_000), at: gate))
        let url = server.url("/a.png")
        var lenient = ImageLoad.Request(url: url)
        lenient.allowsInvalidCertificates = true
        let strictTask = loader.load(ImageLoad.Request(url: url))
        let lenientTask = loader.load(lenient)
        let secondStrict = loader.load(ImageLoad.Request(url: url))
        #expect(loader.runningDownloadCount == 2)
        gate.open()
        let results = [
            await outcome { try await strictTask.result().data }, await outcome { try await lenientTask.result().data },
            await outcome { try await secondStrict.result().data },
        ]
        try await loader.shutdown()
        try await client.shutdown()
        await server.shutdown()
        for result in results { #expect(try result.get() == testBytes(1_000)) }
        #expect(server.requestCount("/a.png") == 2)
    }
}

/// The outcome of an async throwing body.
private func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
