import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// The total deadline of a download, and failures that name their cause.
@Suite("HTTP loader: total timeout and failure causes", .timeLimit(.minutes(3)))
struct HTTPDeadlineAndCauseTests {
    /// One byte every 100 ms for 10 s: never idle long enough for the 15 s read timeout.
    private static let drip = TestResponse.trickle(testBytes(100), bytesPerStep: 1, interval: .milliseconds(100))

    @Test func theDefaultTotalTimeoutIsTwoMinutes() {
        #expect(HTTPImageLoaderConfiguration().totalTimeout == .seconds(120))
        #expect(ImageLoad.Request(url: URL(string: "http://example.com/")!).totalTimeout == nil)
    }

    @Test func aDrippingOriginFailsAtTheTotalTimeout() async throws {
        try await withServerAndLoader({ $0.totalTimeout = .seconds(1) }) { server, loader in
            server.route("/drip", response: Self.drip)
            let url = server.url("/drip")
            let outcome = try await collectEventsOrError(loader.load(ImageLoad.Request(url: url)))
            let error = try #require(outcome.error)
            #expect(error.code == .timedOut)
            #expect(error.message.contains("timed out after 1 s (its total timeout"), "\(error.message)")
            #expect((outcome.progress.last?.receivedBytes ?? 0) < 100)
            #expect(!loader.shouldBlockFailedURL(url, error: error))
            // The transfer stops with the error: the server sees the client go.
            if server.requestCount("/drip") == 1 {
                await server.waitUntil { $0.outcomes("/drip") == [.clientDisconnected] }
            }
        }
    }

    @Test func aRequestsTotalTimeoutOverridesTheLoaders() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/drip", response: Self.drip)
            var request = ImageLoad.Request(url: server.url("/drip"))
            request.totalTimeout = .milliseconds(500)
            let error = try #require(await loadError(loader.load(request)))
            #expect(error.code == .timedOut)
            #expect(error.message.contains("after 500 ms (its total timeout"), "\(error.message)")
        }
    }

    @Test func theTotalTimeoutCoversRedirectHops() async throws {
        try await withServerAndLoader({ $0.totalTimeout = .milliseconds(500) }) { server, loader in
            server.route("/start", response: .redirect(to: "/hang"))
            server.route("/hang", response: .hanging)
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/start")))))
            #expect(error.code == .timedOut)
            #expect(error.message.contains("total timeout"), "\(error.message)")
        }
    }

    @Test func aRefusedConnectionSaysSo() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        try await withServerAndLoader { _, loader in
            // An IP literal (one socket error) and a name resolved to several addresses.
            for host in ["127.0.0.1", "localhost"] {
                let url = try #require(URL(string: "http://\(host):\(port)/gone.png"))
                let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
                #expect(error.code == .networkError)
                #expect(error.message.hasSuffix("failed: connection refused"), "\(error.message)")
            }
        }
        withExtendedLifetime(refusing) {}
    }

    // glibc refuses to build a DNS query for a name with an empty label, so this fails inside the
    // resolver without a packet leaving the machine (a plain `x.invalid` name would still be
    // sent to the configured name server).
    @Test func anUnresolvableHostSaysSo() async throws {
        try await withServerAndLoader { _, loader in
            let url = try #require(URL(string: "http://no..such.invalid/x.png"))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(error.code == .networkError)
            #expect(error.message.contains("could not resolve host no..such.invalid"), "\(error.message)")
            #expect(!loader.shouldBlockFailedURL(url, error: error))
        }
    }

    // Each server never sends what is awaited, so these pass whatever the limits' length (the
    // other limit is long so that only one can run out).
    @Test func aMissingResponseNamesTheResponseTimeout() async throws {
        try await withServerAndLoader({
            $0.timeout = .milliseconds(300)
            $0.readTimeout = .seconds(60)
        }) { server, loader in
            server.route("/hang", response: .hanging)
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/hang")))))
            #expect(error.code == .timedOut)
            // On a loaded machine the connection itself may take longer than the limit.
            #expect(
                error.message.contains("timed out after 300 ms waiting for the response")
                    || error.message.contains("timed out after 300 ms connecting"), "\(error.message)")
        }
    }

    @Test func aStalledBodyNamesTheIdleTimeout() async throws {
        try await withServerAndLoader({
            $0.timeout = .seconds(60)
            $0.readTimeout = .milliseconds(400)
        }) { server, loader in
            server.route("/stall", response: .hangingAfterHead())
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/stall")))))
            #expect(error.code == .timedOut)
            #expect(error.message.contains("timed out after 400 ms without data (idle timeout)"), "\(error.message)")
        }
    }

    @Test func aConnectionClosedMidBodyNamesItsCause() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/cut", response: .closingMidBody(testBytes(10_000), after: 4_000))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/cut")))))
            #expect(error.code == .networkError)
            #expect(error.message.hasSuffix("failed: connection closed by the server before the response ended"), "\(error.message)")
        }
    }

    @Test func anUntrustedCertificateSaysSo() async throws {
        let server = try await LoopbackHTTPServer.start(tls: .selfSigned)
        var configuration = HTTPImageLoaderConfiguration()
        configuration.timeout = .seconds(60)
        let loader = HTTPImageLoader(configuration: configuration)
        server.route("/a.png", response: .ok(testBytes(10)))
        let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/a.png"))))
        try await loader.shutdown()
        await server.shutdown()
        #expect(error?.code == .networkError)
        #expect(error?.message.hasSuffix("failed: TLS: certificate not trusted") == true, "\(String(describing: error))")
    }
}
