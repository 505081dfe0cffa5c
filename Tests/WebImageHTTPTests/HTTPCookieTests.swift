import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting
import WebImageHTTPCookies
import Logging
import WebImageTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `handlesCookies` through Foundation's `HTTPCookieStorage`, each test with its own in-memory
/// storage (never the shared one).
@Suite("HTTP loader: cookies", .timeLimit(.minutes(3)))
struct HTTPCookieTests {
    /// A storage that keeps cookies in memory only.
    private static func ephemeralStorage() throws -> HTTPCookieStorage {
        try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
    }

    private static func cookies(_ request: ImageLoad.Request) -> ImageLoad.Request {
        var request = request
        request.handlesCookies = true
        return request
    }

    @Test func cookiesAreOffByDefault() async throws {
        let storage = try Self.ephemeralStorage()
        try await withServerAndLoader({ $0.cookieStorage = storage }) { server, loader in
            server.route("/login", response: .ok(testBytes(10), headers: [("Set-Cookie", "session=abc; Path=/")]))
            let request = ImageLoad.Request(url: server.url("/login"))
            #expect(!request.handlesCookies)
            _ = try await loader.load(request).result()
            #expect(storage.cookies(for: server.url("/login")) ?? [] == [])
        }
    }

    @Test func withoutAStoreNoCookieIsSentOrKeptAndTheLoaderWarnsOnce() async throws {
        let lines = CapturedLog()
        let logger = lines.logger(label: "test.cookies", level: .warning)
        try await withServerAndLoader({ $0.cookieStorage = nil; $0.logger = logger }) { server, loader in
            server.route("/login", response: .ok(testBytes(10), headers: [("Set-Cookie", "session=abc; Path=/")]))
            server.route("/a.png", response: .ok(testBytes(100)))
            _ = try await loader.load(Self.cookies(ImageLoad.Request(url: server.url("/login")))).result()
            _ = try await loader.load(Self.cookies(ImageLoad.Request(url: server.url("/a.png")))).result()
            #expect(server.log.requests.map { $0.header("Cookie") } == [nil, nil])
        }
        let warnings = lines.lines.filter { $0.contains("no cookieStorage") }
        #expect(warnings.count == 1, "\(lines.lines)")
    }

    @Test func theDefaultStoreIsSharedOnApplePlatformsAndNoneOnLinux() {
        #if canImport(Darwin)
            #expect(HTTPImageLoaderConfiguration().cookieStorage === HTTPCookieStorage.shared)
        #else
            #expect(HTTPImageLoaderConfiguration().cookieStorage == nil)
        #endif
    }

    @Test func aCookieSetByOneResponseIsSentOnlyWithFlaggedRequests() async throws {
        let storage = try Self.ephemeralStorage()
        try await withServerAndLoader({ $0.cookieStorage = storage }) { server, loader in
            server.route("/login", response: .ok(testBytes(10), headers: [("Set-Cookie", "session=abc123; Path=/")]))
            server.route("/a.png", response: .ok(testBytes(100)))
            _ = try await loader.load(Self.cookies(ImageLoad.Request(url: server.url("/login")))).result()
            #expect(storage.cookies(for: server.url("/a.png"))?.map(\.name) == ["session"])

            _ = try await loader.load(Self.cookies(ImageLoad.Request(url: server.url("/a.png")))).result()
            _ = try await loader.load(ImageLoad.Request(url: server.url("/a.png"))).result()
            let sent = server.log.requests.filter { $0.path == "/a.png" }.map { $0.header("Cookie") }
            #expect(sent == ["session=abc123", nil])
        }
    }

    @Test func storedCookiesJoinAnExplicitCookieHeader() async throws {
        let storage = try Self.ephemeralStorage()
        try await withServerAndLoader({ $0.cookieStorage = storage }) { server, loader in
            server.route("/a.png", response: .ok(testBytes(100)))
            let url = server.url("/a.png")
            storage.setCookies(
                HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": "stored=1; Path=/"], for: url),
                for: url, mainDocumentURL: url)
            var request = Self.cookies(ImageLoad.Request(url: url))
            request.headers["Cookie"] = "explicit=2"
            _ = try await loader.load(request).result()
            #expect(server.log.requests.last?.header("Cookie") == "explicit=2; stored=1")
        }
    }

    @Test func cookiesSetAlongARedirectAreStored() async throws {
        let storage = try Self.ephemeralStorage()
        try await withServerAndLoader({ $0.cookieStorage = storage }) { server, loader in
            server.route(
                "/hop",
                response: TestResponse(
                    status: 302, headers: [("Location", "/final.png"), ("Set-Cookie", "hop=1; Path=/")],
                    length: .declared(0)))
            server.route(
                "/final.png",
                response: .ok(testBytes(100), headers: [("Set-Cookie", "final=2; Path=/"), ("Set-Cookie", "more=3; Path=/")]))
            _ = try await loader.load(Self.cookies(ImageLoad.Request(url: server.url("/hop")))).result()
            let names = Set(storage.cookies(for: server.url("/any"))?.map(\.name) ?? [])
            #expect(names == ["hop", "final", "more"])
        }
    }

    @Test func flaggedAndUnflaggedCallersDoNotShareADownload() async throws {
        let storage = try Self.ephemeralStorage()
        try await withServerAndLoader({ $0.cookieStorage = storage }) { server, loader in
            let gate = TestGate()
            server.route("/a.png", response: parked(testBytes(100), at: gate))
            let url = server.url("/a.png")
            storage.setCookies(
                HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": "session=s; Path=/"], for: url),
                for: url, mainDocumentURL: url)
            let plain = loader.load(ImageLoad.Request(url: url))
            let flagged = loader.load(Self.cookies(ImageLoad.Request(url: url)))
            #expect(loader.runningDownloadCount == 2)
            gate.open()
            _ = try await plain.result()
            _ = try await flagged.result()
            let sent = Set(server.log.requests.map { $0.header("Cookie") ?? "-" })
            #expect(sent == ["-", "session=s"])
        }
    }
}
