import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: fallback image", .serialized)
struct FallbackImageTests {
    @Test("a failed source answers the fallback through the URL's options, with the failure's status, the error Cache-Control and X-Fallback: 1")
    func fileFallback() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fallback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("fallback.png")
        try Fixtures.png.write(to: file)
        try await ServiceHarness.with(configure: {
            $0.fallbackImage = file
            $0.errorCacheMaxAge = 7
        }) { (harness) async throws in
            harness.origin.route("/missing.jpg", response: .status(404))
            harness.origin.route("/broken.jpg", response: .status(500))
            harness.origin.route("/text.jpg", response: .ok(Data("not an image".utf8), contentType: "image/jpeg"))
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            for (path, status) in [("/missing.jpg", 404), ("/broken.jpg", 502), ("/text.jpg", 422)] {
                let answer = try await harness.image("rs:fit:100:100", path, ext: "webp")
                #expect(answer.status == status, "\(path): \(answer.text)")
                #expect(answer.header("X-Fallback") == "1", "\(path)")
                #expect(answer.header("Cache-Control") == "public, max-age=7", "\(path)")
                #expect(answer.header("ETag") == nil)
                #expect(answer.header("Content-Type") == "image/webp")
                let header = try Fixtures.header(answer.body)
                #expect(header.format == .webp && header.pixelSize == PixelSize(width: 100, height: 67), "\(path)")
            }
            // raw:1 falls back to the fallback's own bytes.
            let raw = try await harness.image("raw:1", "/missing.jpg")
            #expect(raw.status == 404 && raw.header("X-Fallback") == "1")
            #expect(raw.body == Fixtures.png)
            // The request's failures (signature, options) are answered as before.
            let unsigned = try await harness.request(ServiceHarness.unsignedPath("w:10", source: harness.origin.url("/missing.jpg").absoluteString).replacingOccurrences(of: "/w:10", with: "/unsafe/w:10"))
            #expect(unsigned.status == 403 && unsigned.header("X-Fallback") == nil)
            let badOptions = try await harness.image("zz:1", "/missing.jpg")
            #expect(badOptions.status == 400 && badOptions.header("X-Fallback") == nil)
            // A source that works is answered as itself.
            let good = try await harness.image("w:50", "/a.jpg", ext: "png")
            #expect(good.status == 200 && good.header("X-Fallback") == nil)
            #expect(try Fixtures.header(good.body).pixelSize == PixelSize(width: 50, height: 38))
        }
    }

    @Test("an http(s) fallback is fetched like a source; without a fallback failures stay text")
    func urlFallback() async throws {
        let origin = try await LoopbackHTTPServer.start()
        origin.route("/fallback.png", response: .ok(Fixtures.png, contentType: "image/png"))
        origin.route("/missing.jpg", response: .status(404))
        try await ServiceHarness.with(origin: origin, configure: { $0.fallbackImage = origin.url("/fallback.png") }) { (harness) async throws in
            let answer = try await harness.image("w:30", "/missing.jpg", ext: "png")
            #expect(answer.status == 404)
            #expect(answer.header("X-Fallback") == "1")
            #expect(try Fixtures.header(answer.body).pixelSize == PixelSize(width: 30, height: 20))
        }
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/missing.jpg", response: .status(404))
            let answer = try await harness.image("w:30", "/missing.jpg", ext: "png")
            #expect(answer.status == 404 && answer.header("X-Fallback") == nil)
            #expect(answer.text.hasPrefix("404 "))
        }
        var configuration = ImageServerConfiguration()
        configuration.fallbackImage = URL(fileURLWithPath: "/nonexistent/fallback.png")
        #expect(throws: WebImageError.self) { try configuration.checkFallbackImage(coders: Fixtures.coders) }
        configuration.fallbackImage = URL(string: "ftp://example.com/a.png")
        #expect(throws: WebImageError.self) { try configuration.checkFallbackImage(coders: Fixtures.coders) }
    }
}
