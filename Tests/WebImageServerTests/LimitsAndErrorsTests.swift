import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: limits and errors", .serialized)
struct LimitsAndErrorsTests {
    @Test("option errors are 400 with the reason")
    func badOptions() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let cases: [(options: String, reason: String)] = [
                ("zz:1", "unknown option 'zz'"),
                ("q:0", "must be 1–100"),
                ("rs:squash:10:10", "unknown resizing type 'squash'"),
                ("w:-5", "is not a size"),
                ("g:up", "unknown gravity 'up'"),
                ("bl:abc", "is not a number"),
                ("bl:5000", "outside"),
                ("tn:red:melt", "unknown blend mode"),
                ("w:10:20", "too many arguments"),
                ("f:bmp2", "unknown format"),
            ]
            for item in cases {
                let answer = try await harness.image(item.options, "/a.jpg")
                #expect(answer.status == 400, "\(item.options): \(answer.status)")
                #expect(answer.text.contains(item.reason), "\(item.options): \(answer.text)")
            }
            let noSource = try await harness.request("/" + ServiceHarness.key.signature(for: "/w:10/") + "/w:10/")
            #expect(noSource.status == 400)
            let notBase64 = "/w:10/@@@notbase64"
            #expect(try await harness.request("/" + ServiceHarness.key.signature(for: notBase64) + notBase64).status == 400)
            let scheme = ServiceHarness.signed("w:10", source: "ftp://127.0.0.1/a.jpg")
            let refused = try await harness.request(scheme)
            #expect(refused.status == 403)
            #expect(refused.text.contains("ftp"))
            #expect(try await harness.request("/health", method: .POST).status == 405)
            #expect(harness.origin.requestCount("/a.jpg") == 0, "nothing is fetched for a bad URL")
        }
    }

    @Test("source bytes over the limit: 413, from Content-Length and while streaming")
    func sourceBytes() async throws {
        try await ServiceHarness.with(configure: { $0.limits.maxSourceBytes = 2000 }) { (harness) async throws in
            #expect(Fixtures.jpeg.count > 2000)
            harness.origin.route("/big.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            harness.origin.route("/chunked.jpg", response: .chunked(Fixtures.jpeg, chunkSize: 512))
            let answer = try await harness.image("w:10", "/big.jpg")
            #expect(answer.status == 413, "\(answer.text)")
            #expect(answer.text.contains("tooLarge"))
            #expect(try await harness.image("w:10", "/chunked.jpg").status == 413)
        }
    }

    @Test("source pixels from the header, frames × pixels, result dimensions: 422")
    func pixelLimits() async throws {
        try await ServiceHarness.with(configure: { $0.limits.maxAnimationPixels = 50_000_000 }) { (harness) async throws in
            harness.origin.route("/bomb.webp", response: .ok(DecompressionBombs.webPLossless(), contentType: "image/webp"))
            harness.origin.route("/frames.gif", response: .ok(DecompressionBombs.manyFrameGIF(frames: 500, width: 500, height: 500), contentType: "image/gif"))
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let bomb = try await harness.image("w:10", "/bomb.webp")
            #expect(bomb.status == 422, "\(bomb.text)")
            #expect(bomb.text.contains("10000×10000"))
            let frames = try await harness.image("w:10", "/frames.gif", ext: "gif")
            #expect(frames.status == 422, "\(frames.text)")
            #expect(frames.text.contains("500 frames"))
            let wide = try await harness.image("w:9000", "/a.jpg")
            #expect(wide.status == 422)
            #expect(harness.origin.requestCount("/a.jpg") == 0, "a too large request is refused before fetching")
            let computed = try await harness.image("h:8000/el:1", "/a.jpg")
            #expect(computed.status == 422, "the width computed from the aspect (10667) is over the limit")
        }
    }

    @Test("origin failures: 404, bad bytes 422, a hanging origin 504, never 500")
    func originFailures() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/text.jpg", response: .ok(Data("not an image at all".utf8), contentType: "image/jpeg"))
            harness.origin.route("/gone.jpg", response: .status(404))
            harness.origin.route("/broken.jpg", response: .status(500))
            let gone = try await harness.image("w:10", "/gone.jpg")
            #expect(gone.status == 404, "\(gone.status) \(gone.text)")
            let text = try await harness.image("w:10", "/text.jpg")
            #expect(text.status == 422, "\(text.status) \(text.text)")
            #expect(try await harness.image("w:10", "/broken.jpg").status == 502)
        }
        // Only the hanging origin gets a short deadline (the others, on a loaded machine, outlasted 3 s).
        try await ServiceHarness.with(configure: { $0.limits.requestTimeout = .seconds(1) }) { (harness) async throws in
            harness.origin.route("/hang.jpg", response: .hanging)
            let hanging = try await harness.image("w:10", "/hang.jpg")
            #expect(hanging.status == 504, "\(hanging.text)")
            #expect(hanging.text.contains("timedOut"))
        }
    }

    @Test("local:// sources only under the root, no traversal")
    func localSources() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-root-\(UUID().uuidString)")
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-outside-\(UUID().uuidString).jpg")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Fixtures.jpeg.write(to: root.appendingPathComponent("sub/a.jpg"))
        try Fixtures.jpeg.write(to: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.jpg"), withDestinationURL: outside)
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        try await ServiceHarness.with(configure: { $0.localRoot = root }) { (harness) async throws in
            let good = try await harness.request(ServiceHarness.signed("w:80", source: "local:///sub/a.jpg", ext: "png"))
            #expect(good.status == 200, "\(good.text)")
            #expect(try Fixtures.header(good.body).pixelSize == PixelSize(width: 80, height: 60))
            #expect(good.header("Last-Modified") != nil)
            for source in ["local:///../\(outside.lastPathComponent)", "local:///sub/../../x.jpg", "local:///link.jpg", "local:///sub/%2E%2E/%2E%2E/x.jpg"] {
                let answer = try await harness.request(ServiceHarness.signed("w:80", source: source))
                #expect(answer.status == 403, "\(source): \(answer.status) \(answer.text)")
            }
            #expect(try await harness.request(ServiceHarness.signed("w:80", source: "local:///sub/none.jpg")).status == 404)
            #expect(try await harness.request(ServiceHarness.signed("w:80", source: "local:///sub")).status == 404)
        }
        try await ServiceHarness.with { (harness) async throws in
            let answer = try await harness.request(ServiceHarness.signed("w:80", source: "local:///sub/a.jpg"))
            #expect(answer.status == 403, "no root: local:// is refused")
        }
    }
}
