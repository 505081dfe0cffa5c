import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

@testable import WebImageServer

/// The SSRF guard as the service applies it: private and loopback sources (every spelling, and
/// redirects to them) are refused with 403 unless allowlisted. Only loopback addresses are ever
/// contacted: the private ranges are checked against the service's policy without a connection.
@Suite("Service: SSRF", .serialized)
struct SSRFTests {
    @Test("loopback sources in every form, and a redirect to one, are refused by default")
    func refusedByDefault() async throws {
        let origin6 = try await LoopbackHTTPServer.start(host: "::1")
        defer { Task { await origin6.shutdown() } }
        origin6.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
        try await ServiceHarness.with(configure: { $0.urlPolicy = .ssrfGuard(allowHosts: [try! HostPattern("localhost")]) }) {
            (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            harness.origin.route("/hop", response: .redirect(to: "http://127.0.0.1:\(harness.origin.port)/a.jpg"))
            let port = harness.origin.port
            for source in [
                "http://127.0.0.1:\(port)/a.jpg",
                "http://[::ffff:127.0.0.1]:\(port)/a.jpg",
                "http://2130706433:\(port)/a.jpg",
                "http://[::1]:\(origin6.port)/a.jpg",
                "http://localhost:\(port)/hop",  // allowed by name, redirected to 127.0.0.1
            ] {
                let answer = try await harness.request(ServiceHarness.signed("w:10", source: source))
                #expect(answer.status == 403, "\(source): \(answer.status) \(answer.text)")
                #expect(answer.text.contains("urlRefused"), "\(source): \(answer.text)")
            }
            #expect(harness.origin.requestCount("/a.jpg") == 0)
            #expect(harness.origin.requestCount("/hop") == 1, "the allowed first hop was fetched, its redirect refused")
            #expect(origin6.requestCount("/a.jpg") == 0)
        }
    }

    @Test("private, link-local and metadata addresses are refused by the service's policy")
    func privateRanges() async throws {
        let policy = try #require(ImageServerConfiguration().urlPolicy, "the service guards by default")
        for url in ["http://10.0.0.1/a.jpg", "http://192.168.1.1/a.jpg", "http://169.254.169.254/latest", "http://[fd00::1]/a.jpg", "http://0.0.0.0/a.jpg"] {
            await #expect(throws: WebImageError.self, "\(url)") {
                try await policy.check(HTTPRequestHop(url: URL(string: url)!, number: 0))
            }
        }
        // A redirect hop to a private address is checked the same way.
        await #expect(throws: WebImageError.self) {
            try await policy.check(HTTPRequestHop(url: URL(string: "http://10.1.2.3/x")!, number: 1, redirectedFrom: URL(string: "http://example.com/")))
        }
    }

    @Test("allowed when allowlisted: the tests' own loopback origin, IPv4 and IPv6")
    func allowlisted() async throws {
        let origin6 = try await LoopbackHTTPServer.start(host: "::1")
        defer { Task { await origin6.shutdown() } }
        origin6.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
        try await ServiceHarness.with(configure: {
            $0.urlPolicy = .ssrfGuard(allowHosts: [try! HostPattern("127.0.0.1"), try! HostPattern("::1")])
        }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            harness.origin.route("/hop", response: .redirect(to: "/a.jpg"))
            #expect(try await harness.image("w:10", "/a.jpg").status == 200)
            #expect(try await harness.image("w:11", "/hop").status == 200)
            let v6 = try await harness.request(ServiceHarness.signed("w:10", source: "http://[::1]:\(origin6.port)/a.jpg"))
            #expect(v6.status == 200, "\(v6.text)")
        }
    }
}
