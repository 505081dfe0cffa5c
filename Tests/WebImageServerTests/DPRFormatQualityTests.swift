import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: dpr and per-format quality", .serialized)
struct DPRFormatQualityTests {
    static func options(_ text: String, maxDimension: Int = 8192) throws -> ProcessingOptions {
        try ProcessingOptions(segments: text.split(separator: "/"), maxDimension: maxDimension)
    }

    @Test("dpr multiplies the target size (in any order), capped by the result limit; fq merges and keys in a fixed order")
    func parsing() throws {
        #expect(try Self.options("w:200/dpr:2").canonicalKey == Self.options("w:400").canonicalKey)
        #expect(try Self.options("dpr:1.5/rs:fill:100:50").canonicalKey == Self.options("rs:fill:150:75").canonicalKey)
        let capped = try Self.options("rs:fit:5000:2500/dpr:3", maxDimension: 8192)
        #expect(capped.width == 8192 && capped.height == 4096)
        #expect(try Self.options("dpr:2").canonicalKey == Self.options("").canonicalKey, "no size: nothing to multiply")
        for bad in ["dpr:0", "dpr:9", "dpr:-1", "dpr:x", "fq:webp", "fq:webp:101", "fq:bmpx:50", "fq:webp:0"] {
            #expect(throws: WebImageError.self, "\(bad)") { try Self.options(bad) }
        }
        let table = try Self.options("fq:webp:75:avif:55/fq:jpg:60")
        #expect(table.formatQuality == [.webp: 75, .avif: 55, .jpeg: 60])
        #expect(table.canonicalKey == (try Self.options("fq:jpeg:60/fq:avif:55:webp:75")).canonicalKey)
        #expect(table.canonicalKey.hasSuffix("fq:avif:55:jpeg:60:webp:75"))
        // q wins over fq, so fq does not split the cache.
        #expect(try Self.options("q:50/fq:webp:75").canonicalKey == Self.options("q:50").canonicalKey)
        #expect(try ProcessingOptions.formatQualities(parsing: "webp=75, avif=55") == [.webp: 75, .avif: 55])
        #expect(throws: WebImageError.self) { try ProcessingOptions.formatQualities(parsing: "webp:75") }
        // The service's table enters result keys only when set: older keys stay valid.
        let options = try Self.options("w:10")
        let source = ImageSource.remote(URL(string: "https://example.com/a.jpg")!)
        let plain = ImageService.resultKey(source: source, options: options, output: .format(.webp), quality: 80)
        #expect(!plain.contains("fq"))
        let tabled = ImageService.resultKey(source: source, options: options, output: .format(.webp), quality: 80, formatQuality: [.webp: 60])
        #expect(tabled == plain + "|fq:webp:60")
    }

    @Test("dpr over the socket: multiplied, never enlarged without el, capped by --max-result-dimension; same ETag as the multiplied size")
    func devicePixelRatio() async throws {
        try await ServiceHarness.with(configure: { $0.limits.maxResultDimension = 1000 }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let cases: [(String, Int, Int)] = [
                ("w:200/dpr:2", 400, 300),
                ("w:600/dpr:2", 800, 600),  // the source's size: not enlarged
                ("w:600/dpr:2/el:1", 1000, 750),  // enlarged, capped by the result limit
                ("rs:fill:100:100/dpr:0.5", 50, 50),
            ]
            for (options, width, height) in cases {
                let answer = try await harness.image(options, "/a.jpg", ext: "png")
                #expect(answer.status == 200, "\(options): \(answer.text)")
                #expect(try Fixtures.header(answer.body).pixelSize == PixelSize(width: width, height: height), "\(options)")
            }
            let doubled = try await harness.image("w:200/dpr:2", "/a.jpg", ext: "png")
            let spelled = try await harness.image("w:400", "/a.jpg", ext: "png")
            #expect(doubled.header("ETag") == spelled.header("ETag"))
        }
    }

    @Test("--format-quality applies to its formats only; a URL's fq adds to it and q wins over both")
    func formatQuality() async throws {
        try await ServiceHarness.with(configure: { $0.formatQuality = [.webp: 30] }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            func body(_ options: String, _ ext: String) async throws -> Data {
                let answer = try await harness.image(options, "/a.jpg", ext: ext)
                #expect(answer.status == 200, "\(options): \(answer.text)")
                return answer.body
            }
            let configured = try await body("w:300", "webp")
            #expect(configured == (try await body("w:300/q:30", "webp")))
            #expect(configured != (try await body("w:300/q:80", "webp")))
            // Other formats keep the default quality (80).
            #expect(try await body("w:300", "jpg") == (try await body("w:300/q:80", "jpg")))
            // The URL's fq overrides the service's for its format, and q wins over fq.
            #expect(try await body("w:300/fq:webp:90", "webp") == (try await body("w:300/q:90", "webp")))
            #expect(try await body("w:300/fq:jpg:40", "jpg") == (try await body("w:300/q:40", "jpg")))
            #expect(try await body("w:300/fq:webp:90/q:20", "webp") == (try await body("w:300/q:20", "webp")))
            let bad = try await harness.image("fq:webp:500", "/a.jpg", ext: "webp")
            #expect(bad.status == 400)
        }
    }
}
