import Foundation
import Logging
import NIOHTTP1
import Synchronization
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// The router and its middleware: methods on every route, `HEAD` on the fixed routes, paths no
/// route takes, the access log and the answer counters.
@Suite("Service: routes and middleware", .serialized)
struct RoutingTests {
    /// Every path shape the router tells apart: the fixed routes, an image URL, `/`, and a path
    /// under a fixed route.
    static func paths(_ harness: ServiceHarness) -> [String] {
        ["/health", "/ready", "/metrics", ServiceHarness.signed("w:10", source: harness.origin.url("/a.jpg").absoluteString), "/", "/health/x"]
    }

    @Test("methods other than GET and HEAD are 405 with Allow on every route, and counted")
    func otherMethods() async throws {
        try await ServiceHarness.with { (harness) async throws in
            var count = 0
            for path in Self.paths(harness) {
                for method in [HTTPMethod.POST, .PUT, .DELETE, .OPTIONS] {
                    let answer = try await harness.request(path, method: method)
                    #expect(answer.status == 405, "\(method) \(path)")
                    #expect(answer.header("Allow") == "GET, HEAD", "\(method) \(path)")
                    #expect(answer.text == "only GET and HEAD\n", "\(method) \(path)")
                    count += 1
                }
            }
            #expect(harness.origin.requestCount("/a.jpg") == 0)
            let metrics = try await harness.request("/metrics").text
            #expect(metrics.contains(#"webimage_http_requests_total{status="405"} \#(count)"#), "\(metrics)")
            // The memory-pressure watcher runs with the server and reports the limit it sees.
            #expect(metrics.contains("webimage_memory_limit_bytes \(ContainerMemory.process.limit)"), "\(metrics)")
        }
    }

    @Test("HEAD on /health, /ready and /metrics: the GET's headers without the body")
    func headOnFixedRoutes() async throws {
        try await ServiceHarness.with { (harness) async throws in
            for path in ["/health", "/ready", "/metrics"] {
                let get = try await harness.request(path)
                let head = try await harness.request(path, method: .HEAD)
                #expect(head.status == 200, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.header("Content-Type") == get.header("Content-Type"), "\(path)")
                if path != "/metrics" {  // the exposition grows with each request
                    #expect(head.header("Content-Length") == String(get.body.count), "\(path)")
                }
            }
            #expect(try await harness.request("/health", method: .HEAD).header("Content-Length") == "3")
        }
    }

    @Test("/ and paths under the fixed routes are 404 notFound, cached like other errors")
    func pathsNoRouteTakes() async throws {
        try await ServiceHarness.with { (harness) async throws in
            for path in ["/", "/health/x", "/ready/a/b", "/metrics/x?y=1"] {
                let answer = try await harness.request(path)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.text == "404 notFound: no such path\n", "\(path)")
                #expect(answer.header("Cache-Control") == "public, max-age=10", "\(path)")
                let head = try await harness.request(path, method: .HEAD)
                #expect(head.status == 404, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
            }
        }
    }

    @Test("answers are counted by status and bytes, whichever middleware or route made them")
    func answerMetrics() async throws {
        try await ServiceHarness.with { (harness) async throws in
            let signed = ServiceHarness.signed("w:10", source: harness.origin.url("/a.jpg").absoluteString)
            var bytes = 0
            for (path, method, status) in [
                (signed + "?v=1", HTTPMethod.GET, 400), ("/health/x", .GET, 404), ("/health", .POST, 405), ("/health", .GET, 200),
            ] {
                let answer = try await harness.request(path, method: method)
                #expect(answer.status == status, "\(method) \(path)")
                bytes += answer.body.count
            }
            // A HEAD is counted as an answer; its body (none) is not counted as bytes.
            #expect(try await harness.request("/health", method: .HEAD).status == 200)
            let metrics = try await harness.request("/metrics").text
            for line in [
                #"webimage_http_requests_total{status="400"} 1"#,
                #"webimage_http_requests_total{status="404"} 1"#,
                #"webimage_http_requests_total{status="405"} 1"#,
                #"webimage_http_requests_total{status="200"} 2"#,
                "webimage_response_bytes_total \(bytes)\n",
            ] {
                #expect(metrics.contains(line), "\(line) in\n\(metrics)")
            }
        }
    }

    @Test("the access log middleware writes one line per answer: method, path without query, status, bytes, ms")
    func accessLog() async throws {
        let lines = CapturedLog()
        let logger = lines.logger(label: "test.server")
        try await ServiceHarness.with(logger: logger, configure: { $0.accessLog = true }) { (harness) async throws in
            let signed = ServiceHarness.signed("w:10", source: harness.origin.url("/a.jpg").absoluteString)
            _ = try await harness.request("/health")
            _ = try await harness.request("/health", method: .HEAD)
            _ = try await harness.request("/ready", method: .POST)
            _ = try await harness.request("/health/x")
            _ = try await harness.request(signed + "?v=1")
            let logged = lines.messages.filter { $0.hasSuffix("ms") }
            let expected = [
                "GET /health 200 3 ", "HEAD /health 200 3 ", "POST /ready 405 18 ", "GET /health/x 404 27 ",
                "GET \(signed) 400 ",
            ]
            #expect(logged.count == expected.count, "\(logged)")
            for (line, prefix) in zip(logged, expected) {
                #expect(line.hasPrefix(prefix), "\(line) should start with \(prefix)")
            }
        }
        // Off, nothing of the kind is written.
        let quiet = CapturedLog()
        let quietLogger = quiet.logger(label: "test.server")
        try await ServiceHarness.with(logger: quietLogger) { (harness) async throws in
            _ = try await harness.request("/health")
            #expect(!quiet.messages.contains { $0.hasPrefix("GET /health") })
        }
    }
}

