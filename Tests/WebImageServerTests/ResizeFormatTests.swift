import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: resize and formats", .serialized)
struct ResizeFormatTests {
    @Test("rs:fit, rs:fill, w only, force, fill with gravity; the bytes are the format the header says")
    func resizes() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let cases: [(options: String, ext: String, width: Int, height: Int, format: ImageFormat)] = [
                ("rs:fit:200:200", "png", 200, 150, .png),
                ("rs:fill:200:200", "png", 200, 200, .png),
                ("w:100", "jpg", 100, 75, .jpeg),
                ("h:60/q:50", "webp", 80, 60, .webp),
                ("rs:force:50:90", "png", 50, 90, .png),
                ("rs:fill:100:300/g:we", "png", 100, 300, .png),
                ("rs:fit:2000:2000", "png", 800, 600, .png),  // never enlarged by default
                ("rs:fit:1600:0/el:1", "png", 1600, 1200, .png),
                ("c:400:300:nowe/w:200", "png", 200, 150, .png),
                ("rs:fit:100:100/rot:90/fl:h/bl:1/gs:1/rc:10", "png", 75, 100, .png),
            ]
            for item in cases {
                let answer = try await harness.image(item.options, "/a.jpg", ext: item.ext)
                #expect(answer.status == 200, "\(item.options): \(answer.text)")
                guard answer.status == 200 else { continue }
                let header = try Fixtures.header(answer.body)
                #expect(header.format == item.format, "\(item.options)")
                #expect(header.pixelSize == PixelSize(width: item.width, height: item.height), "\(item.options)")
                #expect(answer.header("Content-Type") == item.format.mimeType)
                #expect(answer.header("Content-Length") == String(answer.body.count))
                #expect(answer.header("Vary") == nil, "an explicit format does not vary")
            }
        }
    }

    @Test("base64url sources split by slashes, with a .ext")
    func base64Source() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/b.png", response: .ok(Fixtures.png, contentType: "image/png"))
            let encoded = Data(harness.origin.url("/b.png").absoluteString.utf8).base64URLEncodedString()
            let split = String(encoded.prefix(10)) + "/" + String(encoded.dropFirst(10))
            let path = "/rs:fit:30:30/" + split + ".webp"
            let answer = try await harness.request("/" + ServiceHarness.key.signature(for: path) + path)
            #expect(answer.status == 200, "\(answer.text)")
            let header = try Fixtures.header(answer.body)
            #expect(header.format == .webp)
            #expect(header.pixelSize == PixelSize(width: 30, height: 20))
        }
    }

    @Test("format negotiation by Accept, with Vary: Accept")
    func negotiation() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let webp = try await harness.image("w:64", "/a.jpg", headers: [("Accept", "image/webp,image/*;q=0.8")])
            #expect(webp.header("Content-Type") == "image/webp")
            #expect(webp.header("Vary") == "Accept")
            #expect(try Fixtures.header(webp.body).format == .webp)

            let avif = try await harness.image("w:64/f:auto", "/a.jpg", headers: [("Accept", "image/avif,image/webp,*/*")])
            #expect(avif.header("Content-Type") == "image/avif")
            #expect(try Fixtures.header(avif.body).format == .avif)

            let refused = try await harness.image("w:64", "/a.jpg", headers: [("Accept", "image/avif;q=0,image/webp;q=0,*/*")])
            #expect(refused.header("Content-Type") == "image/jpeg", "q=0 refuses: the source's format")

            let plain = try await harness.image("w:64", "/a.jpg")
            #expect(plain.header("Content-Type") == "image/jpeg")
            #expect(plain.header("Vary") == "Accept")

            let explicit = try await harness.image("w:64", "/a.jpg", ext: "png", headers: [("Accept", "image/webp")])
            #expect(explicit.header("Content-Type") == "image/png")
            #expect(explicit.header("Vary") == nil)
        }
    }

    @Test("JPEG XL is offered to Accept only when enabled (--auto-jxl), before AVIF, with its own cache entry")
    func jpegXLNegotiation() async throws {
        let accept = [("Accept", "image/jxl,image/avif,image/webp,*/*")]
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let off = try await harness.image("w:64", "/a.jpg", headers: accept)
            #expect(off.header("Content-Type") == "image/avif", "JPEG XL is not offered unless enabled")
        }
        try await ServiceHarness.with(configure: { $0.offersJXL = true }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let jxl = try await harness.image("w:64", "/a.jpg", headers: accept)
            #expect(jxl.status == 200)
            #expect(jxl.header("Content-Type") == "image/jxl")
            #expect(jxl.header("Vary") == "Accept")
            let header = try Fixtures.header(jxl.body)
            #expect(header.format == .jpegXL && header.pixelSize.width == 64)
            // A client without JPEG XL gets AVIF from the same URL: the choice keys the result cache.
            let avif = try await harness.image("w:64", "/a.jpg", headers: [("Accept", "image/avif,*/*")])
            #expect(avif.header("Content-Type") == "image/avif")
            #expect(avif.header("ETag") != jxl.header("ETag"))
        }
    }

    @Test("ETag, Cache-Control, Last-Modified, 304 for If-None-Match, HEAD")
    func httpSemantics() async throws {
        try await ServiceHarness.with(configure: { $0.cacheMaxAge = 3600 }) { (harness) async throws in
            harness.origin.route(
                "/a.jpg",
                response: .ok(Fixtures.jpeg, contentType: "image/jpeg", headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Sep 2026 10:00:00 GMT")]))
            let first = try await harness.image("w:64", "/a.jpg", ext: "png")
            #expect(first.status == 200)
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(first.header("Cache-Control") == "public, max-age=3600")
            #expect(first.header("Last-Modified") == "Tue, 01 Sep 2026 10:00:00 GMT")

            let other = try await harness.image("w:65", "/a.jpg", ext: "png")
            #expect(other.header("ETag") != etag, "the options are part of the ETag")

            let notModified = try await harness.image("w:64", "/a.jpg", ext: "png", headers: [("If-None-Match", "\"zzz\", " + etag)])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == etag)

            let changed = try await harness.image("w:64", "/a.jpg", ext: "png", headers: [("If-None-Match", "\"other\"")])
            #expect(changed.status == 200)

            let head = try await harness.request(
                ServiceHarness.signed("w:64", source: harness.origin.url("/a.jpg").absoluteString, ext: "png"), method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(first.body.count))
            #expect(head.header("Content-Type") == "image/png")
            #expect(harness.origin.requestCount("/a.jpg") == 1, "the original is fetched once")

            let error = try await harness.image("w:64", "/missing.jpg")
            #expect(error.status == 404)
            #expect(error.header("Cache-Control") == "public, max-age=10", "errors are cached briefly")
        }
    }

    @Test("the disk cache answers a new server without the origin")
    func diskCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let origin = try await LoopbackHTTPServer.start()
        origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
        let path = ServiceHarness.signed("w:64", source: origin.url("/a.jpg").absoluteString, ext: "png")
        var first: ServiceHarness.Answer?
        let harness = try await ServiceHarness.start(origin: origin) { $0.cacheDirectory = directory }
        first = try await harness.request(path)
        try await harness.client.shutdown()
        await harness.server.shutdown()
        try await harness.runner.value

        try await ServiceHarness.with(origin: origin, configure: { $0.cacheDirectory = directory }) { (second) async throws in
            let answer = try await second.request(path)
            #expect(answer.status == 200)
            #expect(answer.body == first?.body)
            #expect(answer.header("ETag") == first?.header("ETag"))
            #expect(origin.requestCount("/a.jpg") == 1)
            let metrics = try await second.request("/metrics").text
            #expect(metrics.contains(#"webimage_cache_hits_total{tier="disk"} 1"#))
        }
    }
}
