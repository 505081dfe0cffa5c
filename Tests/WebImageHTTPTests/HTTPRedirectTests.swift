import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting
import WebImageHTTPCookies

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loader follows redirects itself and checks every hop before it is sent.
@Suite("HTTP loader: URL checks, redirects and the URL policy", .timeLimit(.minutes(3)))
struct HTTPRedirectTests {
    /// The hops a policy was asked about.
    final class SeenHops: Sendable {
        private let values = LockedValues()
        func record(_ hop: HTTPRequestHop) {
            values.append("\(hop.number) \(hop.url.path) \(hop.redirectedFrom?.path ?? "-")")
        }
        var hops: [String] { values.values }
    }

    struct Forbidden: Error {}

    // AsyncHTTPClient traps ("Not enough bits to represent the passed value") on an IP literal
    // with a port over 65535, killing the whole test process; the loader must refuse it first.
    @Test(arguments: [
        "http://127.0.0.1:99999/x.png", "http://[::1]:70000/x.png", "http://127.0.0.1:99999999999999999999999/x.png",
    ])
    func aURLWithAPortOutOfRangeIsATypedErrorNotATrap(_ text: String) async throws {
        try await withServerAndLoader { _, loader in
            let url = try #require(URL(string: text))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(error.code == .invalidURL)
            #expect(error.message.contains("outside 1…65535"), "\(error.message)")
            #expect(loader.shouldBlockFailedURL(url, error: error))
        }
    }

    @Test(arguments: ["http://127.0.0.1:99999/x.png", "http://[::1]:70000/x.png", "ftp://127.0.0.1/x.png"])
    func aRedirectToAURLOutOfShapeIsATypedErrorNotATrap(_ target: String) async throws {
        try await withServerAndLoader { server, loader in
            server.route("/start", response: .redirect(to: target))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/start")))))
            #expect(error.code == .invalidURL)
            #expect(error.message.contains("redirect 1 from \(server.url("/start").absoluteString)"), "\(error.message)")
            #expect(server.requestCount("/start") == 1)
        }
    }

    @Test func redirectsBeyondTheLimitFailAndTheLimitIsConfigurable() async throws {
        try await withServerAndLoader({ $0.maximumRedirects = 3 }) { server, loader in
            server.route("/final.png", response: .ok(testBytes(40)))
            server.routeRedirectChain(from: "/three", hops: 3, to: "/final.png")
            server.routeRedirectChain(from: "/four", hops: 4, to: "/final.png")
            let result = try await loader.load(ImageLoad.Request(url: server.url("/three"))).result()
            #expect(result.metrics.redirectCount == 3)
            #expect(result.response.url == server.url("/final.png"))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/four")))))
            #expect(error.code == .invalidDownloadResponse)
            #expect(error.message.contains("too many redirects"))
            // The fourth redirect is not followed.
            #expect(server.requestCount("/four-3") == 1)
            #expect(server.requestCount("/final.png") == 1)
        }
    }

    @Test func elevenRedirectsFailByDefault() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/final.png", response: .ok(testBytes(40)))
            server.routeRedirectChain(from: "/eleven", hops: 11, to: "/final.png")
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/eleven")))))
            #expect(error.code == .invalidDownloadResponse)
            #expect(server.requestCount("/final.png") == 0)
        }
    }

    @Test func withoutFollowingTheRedirectIsTheFinalResponse() async throws {
        try await withServerAndLoader({ $0.maximumRedirects = 0 }) { server, loader in
            server.route("/start", response: .redirect(to: "/final.png"))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/start")))))
            #expect(error.code == .invalidDownloadStatusCode && error.statusCode == 302)
            #expect(server.requestCount("/final.png") == 0)
        }
    }

    @Test func relativeLocationsResolveAgainstTheURLThatAnswered() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/dir/start", response: .redirect(to: "next", status: 301))
            server.route("/dir/next", response: .redirect(to: "../img/final.png", status: 308))
            server.route("/img/final.png", response: .ok(testBytes(30)))
            let result = try await loader.load(ImageLoad.Request(url: server.url("/dir/start"))).result()
            #expect(result.data == testBytes(30))
            #expect(result.response.url == server.url("/img/final.png"))
            #expect(result.metrics.redirectCount == 2)
        }
    }

    @Test func thePolicySeesEveryHopAndARefusedHopIsNeverSent() async throws {
        let seen = SeenHops()
        try await withServerAndLoader({
            $0.urlPolicy = HTTPURLPolicy { hop in
                seen.record(hop)
                if hop.url.path.hasPrefix("/internal") { throw Forbidden() }
            }
        }) { server, loader in
            server.route("/start", response: .redirect(to: "/middle"))
            server.route("/middle", response: .redirect(to: "/internal/secret.png"))
            server.route("/internal/secret.png", response: .ok(testBytes(10)))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/start")))))
            #expect(error.code == .urlRefused)
            #expect(error.underlying is Forbidden)
            #expect(error.message.contains("redirect 2 from \(server.url("/middle").absoluteString)"), "\(error.message)")
            #expect(seen.hops == ["0 /start -", "1 /middle /start", "2 /internal/secret.png /middle"])
            #expect(server.requestCount("/internal/secret.png") == 0)
            #expect(server.requestCount("/middle") == 1)
        }
    }

    @Test func thePolicyIsAskedAboutTheFirstURLAndItsOwnErrorsPassThrough() async throws {
        try await withServerAndLoader({
            $0.urlPolicy = HTTPURLPolicy { hop in
                if hop.url.path == "/typed" { throw WebImageError(.downloadDisallowed, "not this one") }
                throw Forbidden()
            }
        }) { server, loader in
            server.route("/a.png", response: .ok(testBytes(10)))
            let refused = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/a.png")))))
            #expect(refused.code == .urlRefused)
            #expect(refused.message.contains(server.url("/a.png").absoluteString))
            let typed = try #require(await loadError(loader.load(ImageLoad.Request(url: server.url("/typed")))))
            #expect(typed.code == .downloadDisallowed && typed.message == "not this one")
            #expect(server.log.requests.isEmpty)
        }
    }

    @Test func aCrossOriginHopDropsAuthorizationAndCookieASameOriginHopKeepsThem() async throws {
        let other = try await LoopbackHTTPServer.start()
        defer { Task { await other.shutdown() } }
        other.route("/final.png", response: .ok(testBytes(20)))
        try await withServerAndLoader { server, loader in
            server.route("/start", response: .redirect(to: "/same"))
            server.route("/same", response: .redirect(to: other.url("/final.png").absoluteString))
            var request = ImageLoad.Request(url: server.url("/start"))
            request.headers["Authorization"] = "Bearer secret"
            request.headers["Cookie"] = "session=1"
            request.headers["X-Client"] = "gallery"
            #expect(try await loader.load(request).result().data == testBytes(20))
            let same = try #require(server.log.requests.first { $0.path == "/same" })
            #expect(same.header("Authorization") == "Bearer secret" && same.header("Cookie") == "session=1")
            let final = try #require(other.log.requests.first)
            #expect(final.header("Authorization") == nil && final.header("Cookie") == nil)
            #expect(final.header("X-Client") == "gallery")
        }
    }

    @Test func a303AfterAPostContinuesAsAGetAndA307KeepsThePost() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/form", response: .redirect(to: "/result.png", status: 303))
            server.route("/keep", response: .redirect(to: "/result.png", status: 307))
            server.route("/result.png", response: .ok(testBytes(10)))
            for path in ["/form", "/keep"] {
                var request = ImageLoad.Request(url: server.url(path))
                request.requestModifier = ImageRequestModifier { outgoing in
                    var outgoing = outgoing
                    outgoing.method = "POST"
                    outgoing.body = Data("a=1".utf8)
                    return outgoing
                }
                _ = try await loader.load(request).result()
            }
            let results = server.log.requests.filter { $0.path == "/result.png" }.map { "\($0.method) \($0.body.count)" }
            #expect(results == ["GET 0", "POST 3"])
        }
    }

    @Test func aCookieSetByARedirectGoesWithTheNextHop() async throws {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        try await withServerAndLoader({ $0.cookieStorage = storage }) { server, loader in
            server.route(
                "/login",
                response: TestResponse(
                    status: 302, headers: [("Location", "/final.png"), ("Set-Cookie", "hop=1; Path=/")], length: .declared(0)))
            server.route("/final.png", response: .ok(testBytes(10)))
            var request = ImageLoad.Request(url: server.url("/login"))
            request.handlesCookies = true
            _ = try await loader.load(request).result()
            #expect(server.log.requests.first { $0.path == "/final.png" }?.header("Cookie") == "hop=1")
        }
    }

    @Test func theCredentialProviderAnswersTheHopThatAsked() async throws {
        let asked = LockedValues()
        try await withServerAndLoader({
            $0.credentialProvider = { url, _ in
                asked.append(url.path)
                return ImageLoad.Credential(user: "u", password: "p")
            }
        }) { server, loader in
            server.route("/start", response: .redirect(to: "/private.png"))
            server.routeBasicAuth("/private.png", user: "u", password: "p", response: .ok(testBytes(10)))
            let data = try await loader.load(ImageLoad.Request(url: server.url("/start"))).result().data
            #expect(data == testBytes(10))
            #expect(asked.values == ["/private.png"])
            #expect(server.requestCount("/start") == 1)
        }
    }
}
