import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting
import WebImageHTTPCookies

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The manager maps `.allowInvalidSSLCertificates` and `.handleCookies` onto the download.
@Suite("ImageManager: invalid certificates and cookies over HTTP", .timeLimit(.minutes(3)))
struct ManagerTLSAndCookieTests {
    @Test func allowInvalidSSLCertificatesLoadsAndDecodesOverHTTPS() async throws {
        // A generous timeout: the refused handshake fails at once (no connection retries), but the
        // first verifying handshake of a loaded debug build can take seconds.
        try await withHarness(tls: .selfSigned, configure: { $0.timeout = .seconds(60) }) { harness in
            harness.server.route("/tls.png", response: .ok(try Fixture.png(width: 20, height: 10)))
            let manager = try harness.makeManager()
            let url = harness.server.url("/tls.png")
            #expect(url.scheme == "https")
            #expect(await failureCode { try await manager.image(for: url) } == .networkError)
            #expect(!manager.failedURLs.isBlocked(url))
            let response = try await manager.image(for: ImageRequest(url: url, options: [.allowInvalidSSLCertificates]))
            #expect(response.image.pixelSize == PixelSize(width: 20, height: 10))
            #expect(response.cacheType == .none)
            #expect(harness.server.requestCount("/tls.png") == 1)
        }
    }

    @Test func handleCookiesSendsAndStoresThroughTheLoadersStorage() async throws {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        try await withHarness(configure: { $0.cookieStorage = storage }) { harness in
            let server = harness.server
            server.route("/set.png", response: .ok(try Fixture.png(seed: 1), headers: [("Set-Cookie", "token=t1; Path=/")]))
            server.route("/with.png", response: .ok(try Fixture.png(seed: 2)))
            server.route("/without.png", response: .ok(try Fixture.png(seed: 3)))
            let manager = try harness.makeManager()
            _ = try await manager.image(for: ImageRequest(url: server.url("/set.png"), options: [.handleCookies]))
            #expect(storage.cookies(for: server.url("/"))?.map(\.value) == ["t1"])
            _ = try await manager.image(for: ImageRequest(url: server.url("/with.png"), options: [.handleCookies]))
            _ = try await manager.image(for: server.url("/without.png"))
            let log = server.log.requests
            #expect(log.first { $0.path == "/with.png" }?.header("Cookie") == "token=t1")
            #expect(log.first { $0.path == "/without.png" }.map { $0.header("Cookie") == nil } == true)
        }
    }
}
