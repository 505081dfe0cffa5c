import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SSRF guard in the loader against the loopback server: private origins are refused before
/// any connection, by default, and load once allowlisted; every redirect hop is checked.
@Suite("SSRF guard: the loader against the loopback server", .timeLimit(.minutes(3)))
struct SSRFLoaderTests {
    /// Whether a TCP socket can bind to `::1` here.
    static let hasIPv6Loopback: Bool = {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET6, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        guard inet_pton(AF_INET6, "::1", &address.sin6_addr) == 1 else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    private static let image = testBytes(96, seed: 16)

    /// A configuration step installing the guard with `allow`.
    private func guarded(allow: [String] = []) throws -> (inout HTTPImageLoaderConfiguration) -> Void {
        let patterns = try allow.map(HostPattern.init)
        return { $0.urlPolicy = .ssrfGuard(allowHosts: patterns) }
    }

    /// `server`'s URL for `path` with the host written as `host`.
    private func url(_ server: LoopbackHTTPServer, host: String, _ path: String = "/x.png") throws -> URL {
        try #require(URL(string: "http://\(host):\(server.port)\(path)"))
    }

    /// Loads `url` from `server` with the guard allowing `allow`: the error, or nil once the
    /// server's bytes arrived.
    private func load(_ target: (LoopbackHTTPServer) throws -> URL, allow: [String] = []) async throws -> WebImageError? {
        try await valueWithServerAndLoader(guarded(allow: allow)) { server, loader in
            server.route("/x.png", response: .ok(Self.image))
            let url = try target(server)
            let error = await loadError(loader.load(ImageLoad.Request(url: url)))
            if error != nil { #expect(server.requestCount("/x.png") == 0, "a refused URL reached the server") }
            return error
        }
    }

    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1", "127.0.0.1 is a loopback address (127.0.0.0/8)"),
        ("localhost", "localhost", "the host localhost resolves to 127.0.0.1, which is a loopback address"),
        ("[::ffff:127.0.0.1]", "127.0.0.1", "::ffff:127.0.0.1 is an IPv4-mapped form of a loopback address"),
        // getaddrinfo reads these as 127.0.0.1, and so does AsyncHTTPClient's connection.
        ("2130706433", "127.0.0.1", "resolves to 127.0.0.1"), ("0x7f.1", "127.0.0.1", "resolves to 127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1", "resolves to 127.0.0.1"), ("127.1", "127.0.0.1", "resolves to 127.0.0.1"),
    ])
    func aLoopbackOriginIsRefusedByDefaultAndLoadsWhenAllowlisted(_ host: String, _ pattern: String, _ reason: String) async throws {
        let error = try #require(try await load({ try url($0, host: host) }), "\(host) was not refused")
        #expect(error.code == .urlRefused)
        #expect(error.message.contains(reason), "\(error.message)")
        // Allowed, the request goes where the guard resolved it: to the loopback server.
        let allowed = try await load({ try url($0, host: host) }, allow: [pattern])
        #expect(allowed == nil, "\(allowed?.description ?? "")")
    }

    @Test(.enabled(if: SSRFLoaderTests.hasIPv6Loopback, "no IPv6 loopback here"), arguments: ["::1", "[::1]"])
    func ipv6LoopbackIsRefusedByDefaultAndLoadsWhenAllowlisted(_ pattern: String) async throws {
        for allow in [[], [pattern]] {
            let server = try await LoopbackHTTPServer.start(host: "::1")
            var configuration = HTTPImageLoaderConfiguration()
            try guarded(allow: allow)(&configuration)
            let loader = HTTPImageLoader(configuration: configuration)
            server.route("/x.png", response: .ok(Self.image))
            #expect(server.baseURL.absoluteString.hasPrefix("http://[::1]:"))
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/x.png"))))
            try await loader.shutdown()
            await server.shutdown()
            if allow.isEmpty {
                #expect(error?.code == .urlRefused)
                #expect(error?.message.contains("::1 is a loopback address (::1/128)") == true, "\(error?.message ?? "none")")
                #expect(server.requestCount("/x.png") == 0)
            } else {
                #expect(error == nil, "\(error?.description ?? "")")
                #expect(server.requestCount("/x.png") == 1)
            }
        }
    }

    @Test(arguments: ["http://127.0.0.1:PORT/final.png", "http://[::ffff:127.0.0.1]:PORT/final.png", "http://2130706433:PORT/final.png"])
    func aRedirectFromAnAllowedOriginToLoopbackIsRefusedUnlessAllowlisted(_ target: String) async throws {
        for allow in [["localhost"], ["localhost", "127.0.0.1"]] {
            try await withServerAndLoader(guarded(allow: allow)) { server, loader in
                let targetURL = target.replacingOccurrences(of: "PORT", with: "\(server.port)")
                server.route("/start", response: .redirect(to: targetURL))
                server.route("/final.png", response: .ok(Self.image))
                let start = try url(server, host: "localhost", "/start")
                let task = loader.load(ImageLoad.Request(url: start))
                if allow.count == 1 {
                    let error = try #require(await loadError(task), "the redirect to \(targetURL) was followed")
                    #expect(error.code == .urlRefused)
                    #expect(error.message.contains("refused \(targetURL) (redirect 1 from \(start.absoluteString))"), "\(error.message)")
                    #expect(error.message.contains("127.0.0.1"), "\(error.message)")
                    #expect(server.requestCount("/start") == 1)
                    #expect(server.requestCount("/final.png") == 0)
                } else {
                    let result = try await task.result()
                    #expect(result.data == Self.image)
                    #expect(result.metrics.redirectCount == 1)
                    #expect(server.requestCount("/final.png") == 1)
                }
            }
        }
    }

    // AsyncHTTPClient hands "127.0.0.1\0.example.com" to inet_pton, which stops at the NUL and
    // connects to 127.0.0.1; the allowlist must not see it as a name under example.com.
    @Test func aHostWithANulIsRefusedEvenWhenItsTailIsAllowlisted() async throws {
        let error = try #require(try await load({ try url($0, host: "127.0.0.1%00.example.com") }, allow: ["*.example.com"]))
        #expect(error.code == .urlRefused)
        #expect(error.message.contains("is neither a host name nor an IP address"), "\(error.message)")
    }

    @Test func aNameResolvingToAPrivateAddressIsRefusedBeforeAnyConnection() async throws {
        let resolver = HostResolver { name in
            guard name == "evil.test" else { throw WebImageError(.networkError, "unknown \(name)") }
            return [IPAddress(literal: "10.0.0.1")!]
        }
        var configuration = HTTPImageLoaderConfiguration()
        configuration.urlPolicy = .ssrfGuard(allowHosts: [], denyHosts: [], resolver: resolver)
        let loader = HTTPImageLoader(configuration: configuration)
        let error = await loadError(loader.load(ImageLoad.Request(url: URL(string: "http://evil.test/x.png")!)))
        try await loader.shutdown()
        #expect(error?.code == .urlRefused)
        #expect(error?.message.contains("evil.test resolves to 10.0.0.1, which is a private address (10.0.0.0/8)") == true)
    }
}
