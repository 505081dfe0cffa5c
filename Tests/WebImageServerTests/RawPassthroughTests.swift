import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: raw passthrough", .serialized)
struct RawPassthroughTests {
    @Test("raw:1 answers the source's bytes unchanged, typed by their magic bytes, with an ETag and 304")
    func passthrough() async throws {
        try await ServiceHarness.with(configure: { $0.limits.maxSourceBytes = 100_000 }) { (harness) async throws in
            let text = Data("just some bytes, not an image".utf8)
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg", headers: [("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT")]))
            harness.origin.route("/notes.txt", response: .ok(text, contentType: "text/plain"))
            harness.origin.route("/big.bin", response: .ok(Data(repeating: 7, count: 200_000), contentType: "application/octet-stream"))
            let answer = try await harness.image("raw:1/w:10/bl:3", "/a.jpg", ext: "webp")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.body == Fixtures.jpeg, "other options and the extension are ignored")
            #expect(answer.header("Content-Type") == "image/jpeg")
            #expect(answer.header("Last-Modified") == "Tue, 01 Dec 2026 10:00:00 GMT")
            #expect(answer.header("Content-Security-Policy") == nil)
            let etag = try #require(answer.header("ETag"))
            let again = try await harness.image("raw:1", "/a.jpg", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(harness.origin.requestCount("/a.jpg") == 1, "the original is fetched once and cached")
            let head = try await harness.request(
                ServiceHarness.signed("raw:1", source: harness.origin.url("/a.jpg").absoluteString), method: .HEAD)
            #expect(head.status == 200 && head.header("ETag") == etag)

            let other = try await harness.image("raw:1", "/notes.txt")
            #expect(other.status == 200)
            #expect(other.body == text)
            #expect(other.header("Content-Type") == "application/octet-stream")
            #expect(other.header("X-Content-Type-Options") == "nosniff")
            #expect(other.header("Content-Security-Policy")?.contains("sandbox") == true)

            #expect(try await harness.image("raw:1", "/big.bin").status == 413, "size-limited")
            #expect(try await harness.image("raw:x", "/a.jpg").status == 400)
        }
    }

    @Test("raw:1 goes through the SSRF guard")
    func ssrf() async throws {
        try await ServiceHarness.with(configure: { $0.urlPolicy = .ssrfGuard() }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let refused = try await harness.image("raw:1", "/a.jpg")
            #expect(refused.status == 403, "\(refused.text)")
            #expect(harness.origin.requestCount("/a.jpg") == 0)
        }
    }
}
