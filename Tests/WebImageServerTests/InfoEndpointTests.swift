import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: /info", .serialized)
struct InfoEndpointTests {
    /// A real WebP header (a lossless VP8L chunk) declaring `width`×`height`, followed by bytes
    /// that are no image data: the header reads, any decode fails.
    static func largeWebPHeader(width: Int, height: Int) -> Data {
        var bits = UInt32(width - 1) | UInt32(height - 1) << 14
        bits |= 0 << 28  // no alpha, version 0
        var chunk = Data([0x2f])
        withUnsafeBytes(of: bits.littleEndian) { chunk.append(contentsOf: $0) }
        chunk.append(Data(repeating: 0, count: 64))
        func le32(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
        var data = Data("RIFF".utf8) + le32(4 + 8 + chunk.count) + Data("WEBP".utf8)
        data += Data("VP8L".utf8) + le32(chunk.count) + chunk
        return data
    }

    static func json(_ answer: ServiceHarness.Answer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }

    @Test("a signed /info answers the header's facts and the source's ETag; the signature covers the path after it")
    func headerFacts() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg", headers: [("ETag", "\"v1\"")]))
            let source = harness.origin.url("/a.jpg").absoluteString
            let answer = try await harness.request("/info" + ServiceHarness.signed("", source: source))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Content-Type") == "application/json")
            let info = try Self.json(answer)
            #expect(info["format"] as? String == "jpeg")
            #expect(info["width"] as? Int == 800 && info["height"] as? Int == 600)
            #expect(info["frameCount"] as? Int == 1)
            #expect(info["fileSize"] as? Int == Fixtures.jpeg.count)
            #expect(info["etag"] as? String == "\"v1\"")
            #expect(info["file"] as? String == source)
            #expect(info["thumbHash"] == nil, "only when asked")
            // The signature covers the path after it: another path, or a URL signed for an image
            // with options, does not verify.
            let signature = ServiceHarness.key.signature(for: ServiceHarness.unsignedPath("", source: source))
            let tampered = "/info/" + signature + ServiceHarness.unsignedPath("", source: source + "?x")
            #expect(try await harness.request(tampered).status == 403)
            #expect(try await harness.request("/info" + ServiceHarness.unsignedPath("", source: source).replacingOccurrences(of: "/plain", with: "/unsafe/plain")).status == 403)
            #expect(try await harness.request("/info" + ServiceHarness.signed("rs:fit:10:10", source: source)).status == 400)
            #expect(try await harness.request("/info" + ServiceHarness.signed("", source: source), method: .HEAD).status == 200)
        }
    }

    @Test("a 10000×10000 WebP is described from its header: no decode, no pixel limit")
    func largeHeader() async throws {
        let large = Self.largeWebPHeader(width: 10_000, height: 10_000)
        #expect(try Fixtures.header(large).pixelSize == PixelSize(width: 10_000, height: 10_000))
        #expect(throws: (any Error).self, "the bytes after the header are no image data") { try Fixtures.coders.decode(large) }
        // Limits that any decode (or pixel estimate) of this source would fail: only the header is read.
        try await ServiceHarness.with(configure: {
            $0.limits.maxSourcePixels = 1_000_000
            $0.memoryBudget = 16 << 20
        }) { (harness) async throws in
            harness.origin.route("/big.webp", response: .ok(large, contentType: "image/webp"))
            let source = harness.origin.url("/big.webp").absoluteString
            let answer = try await harness.request("/info" + ServiceHarness.signed("", source: source))
            #expect(answer.status == 200, "\(answer.text)")
            let info = try Self.json(answer)
            #expect(info["format"] as? String == "webp")
            #expect(info["width"] as? Int == 10_000 && info["height"] as? Int == 10_000)
            #expect(info["memoryCost"] as? Int == 400_000_000)
            // A ThumbHash needs pixels: over the source pixel limit it is refused before decoding.
            let thumb = try await harness.request("/info" + ServiceHarness.signed("th:1", source: source))
            #expect(thumb.status == 422, "\(thumb.text)")
        }
    }

    @Test("th:1 adds a ThumbHash of the image, as webimage info --thumbhash makes it")
    func thumbHash() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let source = harness.origin.url("/a.jpg").absoluteString
            let answer = try await harness.request("/info" + ServiceHarness.signed("th:1", source: source))
            #expect(answer.status == 200, "\(answer.text)")
            let text = try #require(try Self.json(answer)["thumbHash"] as? String)
            let hash = [UInt8](try #require(Data(base64Encoded: text)))
            #expect(hash == (try ThumbHash.encode(imageData: Fixtures.jpeg, coders: Fixtures.coders)))
            #expect(abs(ThumbHash.approximateAspectRatio(of: hash) - 4.0 / 3.0) < 0.2)
            #expect(try await harness.request("/info" + ServiceHarness.signed("th:1/th:x", source: source)).status == 400)
        }
    }
}
