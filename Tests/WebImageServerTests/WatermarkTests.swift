import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

/// `wm:` with the service's `--watermark`, and per request with `wmu:` from the allowlisted
/// directory or hosts, over a live socket.
@Suite("Service: watermarks", .serialized)
struct WatermarkTests {
    /// A 200×100 opaque white PNG: the source the watermarks are drawn on.
    static let base = png(width: 200, height: 100, fill: RGBA8(r: 255, g: 255, b: 255))
    /// A 20×10 opaque red PNG.
    static let red = png(width: 20, height: 10, fill: RGBA8(r: 255, g: 0, b: 0))
    /// A 20×10 opaque blue PNG.
    static let blue = png(width: 20, height: 10, fill: RGBA8(r: 0, g: 0, b: 255))

    static func png(width: Int, height: Int, fill: RGBA8) -> Data {
        try! Fixtures.coders.encode(
            Image(pixels: PixelBuffer(width: width, height: height, alphaMode: .straight, fill: fill), format: .png), as: .png,
            options: ImageEncodingOptions())
    }

    /// The straight RGBA of the pixel at (x, y) of encoded bytes.
    static func pixel(_ data: Data, _ x: Int, _ y: Int) throws -> [UInt8] {
        let pixels = try Fixtures.coders.decode(data, options: ImageDecodingOptions()).pixels.converted(to: .straight)
        let index = (y * pixels.width + x) * 4
        return Array(pixels.bytes[index..<index + 4])
    }

    static let white: [UInt8] = [255, 255, 255, 255]
    static let opaqueRed: [UInt8] = [255, 0, 0, 255]

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watermark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("--watermark is drawn where wm:OPACITY:POSITION:X:Y:SCALE says: gravity and inset, opacity, replicate, scale")
    func configuredWatermark() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("logo.png")
        try Self.red.write(to: file)
        try await ServiceHarness.with(configure: { $0.watermark = file }) { (harness) async throws in
            harness.origin.route("/base.png", response: .ok(Self.base, contentType: "image/png"))
            let plain = try await harness.image("", "/base.png", ext: "png")
            #expect(plain.status == 200)
            #expect(try Self.pixel(plain.body, 190, 90) == Self.white)

            // South-east, 5 pixels in from the right and bottom edges: x 175…194, y 85…94.
            let corner = try await harness.image("wm:1:soea:5:5", "/base.png", ext: "png")
            #expect(corner.status == 200, "\(corner.text)")
            #expect(try Self.pixel(corner.body, 194, 94) == Self.opaqueRed)
            #expect(try Self.pixel(corner.body, 175, 85) == Self.opaqueRed)
            #expect(try Self.pixel(corner.body, 196, 96) == Self.white)
            #expect(try Self.pixel(corner.body, 174, 85) == Self.white)
            #expect(try Self.pixel(corner.body, 100, 50) == Self.white)
            #expect(corner.header("ETag") != plain.header("ETag"))

            // Half opacity over white is pink; north-west with no offset starts at (0, 0).
            let faint = try await harness.image("watermark:0.5:nowe", "/base.png", ext: "png")
            let pink = try Self.pixel(faint.body, 0, 0)
            #expect(pink[0] == 255 && (120...135).contains(Int(pink[1])) && pink[1] == pink[2], "\(pink)")

            // Replicate with 10 pixels between tiles: red at x 0…19, white at 20…29, red from 30.
            let tiled = try await harness.image("wm:1:re:10:10", "/base.png", ext: "png")
            #expect(try Self.pixel(tiled.body, 0, 0) == Self.opaqueRed)
            #expect(try Self.pixel(tiled.body, 25, 5) == Self.white)
            #expect(try Self.pixel(tiled.body, 35, 5) == Self.opaqueRed)
            #expect(try Self.pixel(tiled.body, 5, 15) == Self.white)
            #expect(try Self.pixel(tiled.body, 185, 85) == Self.opaqueRed)

            // Scale 0.5 of the result's width: a 100×50 watermark, centred (x 50…149, y 25…74).
            let scaled = try await harness.image("wm:1:ce:0:0:0.5", "/base.png", ext: "png")
            #expect(try Self.pixel(scaled.body, 60, 35) == Self.opaqueRed)
            #expect(try Self.pixel(scaled.body, 140, 65) == Self.opaqueRed)
            #expect(try Self.pixel(scaled.body, 40, 20) == Self.white)
            // After a resize, the watermark is drawn on the result: 100×50 with the logo at its own size.
            let resized = try await harness.image("rs:fit:100:50/wm:1:nowe", "/base.png", ext: "png")
            #expect(try Fixtures.header(resized.body).pixelSize == PixelSize(width: 100, height: 50))
            #expect(try Self.pixel(resized.body, 19, 9) == Self.opaqueRed)
            #expect(try Self.pixel(resized.body, 20, 10) == Self.white)

            // wm:0 is no watermark (imgproxy's): the plain result, with its ETag.
            let off = try await harness.image("wm:0:soea", "/base.png", ext: "png")
            #expect(off.header("ETag") == plain.header("ETag"))
            // Bad arguments are the request's error.
            for bad in ["wm:2", "wm:1:sm", "wm:1:nowhere", "wm:1:ce:0:0:3", "wm:1:ce:x"] {
                #expect(try await harness.image(bad, "/base.png", ext: "png").status == 400, "\(bad)")
            }
        }
    }

    @Test("wm:, wmu: and mb: have canonical keys: aliases and spellings share one, wm:0 and mb:0 add nothing")
    func canonicalKeys() throws {
        func key(_ segments: [Substring]) throws -> String { try ProcessingOptions(segments: segments).canonicalKey }
        let plain = try key([])
        #expect(try key(["wm:0.5:soea:5:5"]) == key(["watermark:0.50:southEast:5:5:0"]))
        #expect(try key(["wm:0.5:soea:5:5"]).hasSuffix("/wm:0.5:southEast:5:5:0"))
        #expect(try key(["wm:1:re:4"]).hasSuffix("/wm:1:re:4:0:0"))
        #expect(try key(["wm:0:soea"]) == plain)
        #expect(try key(["mb:0"]) == plain)
        #expect(try key(["max_bytes:5000"]) == key(["mb:5000"]))
        #expect(try key(["mb:5000"]) != plain)
        let withURL = try ProcessingOptions(segments: ["wm:1", "wmu:bG9jYWw6Ly8vbG9nby5wbmc"])
        #expect(withURL.watermarkURL == "local:///logo.png")
        #expect(withURL.canonicalKey.hasSuffix("/wm:1:center:0:0:0/wmu:local:///logo.png"))
    }

    @Test("the watermark's bytes are in the result key: another --watermark file makes another result and ETag")
    func watermarkDigestInKey() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let redFile = directory.appendingPathComponent("red.png")
        let blueFile = directory.appendingPathComponent("blue.png")
        try Self.red.write(to: redFile)
        try Self.blue.write(to: blueFile)
        let cache = directory.appendingPathComponent("cache")
        var etags: [String?] = []
        for file in [redFile, blueFile] {
            // One disk cache for both runs: a key without the digest would answer the red result.
            try await ServiceHarness.with(configure: {
                $0.watermark = file
                $0.cacheDirectory = cache
            }) { (harness) async throws in
                harness.origin.route("/base.png", response: .ok(Self.base, contentType: "image/png"))
                let answer = try await harness.image("wm:1:nowe", "/base.png", ext: "png")
                #expect(answer.status == 200)
                let expected: [UInt8] = file == redFile ? Self.opaqueRed : [0, 0, 255, 255]
                #expect(try Self.pixel(answer.body, 0, 0) == expected)
                etags.append(answer.header("ETag"))
            }
        }
        #expect(etags.count == 2 && etags[0] != nil && etags[0] != etags[1])
    }

    @Test("wmu: takes local:// from --watermark-dir and http(s) from --watermark-allow-host only; wm without an image is 400")
    func perRequestWatermark() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marks = directory.appendingPathComponent("marks")
        try FileManager.default.createDirectory(at: marks, withIntermediateDirectories: true)
        try Self.red.write(to: marks.appendingPathComponent("logo.png"))
        try Self.blue.write(to: directory.appendingPathComponent("outside.png"))
        func wmu(_ url: String) -> String {
            "wmu:" + Data(url.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        try await ServiceHarness.with(configure: { $0.watermarkDirectory = marks }) { (harness) async throws in
            harness.origin.route("/base.png", response: .ok(Self.base, contentType: "image/png"))
            harness.origin.route("/logo.png", response: .ok(Self.blue, contentType: "image/png"))
            let local = try await harness.image("wm:1:nowe/" + wmu("local:///logo.png"), "/base.png", ext: "png")
            #expect(local.status == 200, "\(local.text)")
            #expect(try Self.pixel(local.body, 0, 0) == Self.opaqueRed)
            // The file changes: its digest is in the key, so the next result draws the new one.
            try Self.blue.write(to: marks.appendingPathComponent("logo.png"))
            let changed = try await harness.image("wm:1:nowe/" + wmu("local:///logo.png"), "/base.png", ext: "png")
            #expect(try Self.pixel(changed.body, 0, 0) == [0, 0, 255, 255])
            #expect(changed.header("ETag") != local.header("ETag"))

            let escape = try await harness.image("wm:1:nowe/" + wmu("local:///../outside.png"), "/base.png", ext: "png")
            #expect(escape.status == 403, "\(escape.text)")
            let host = try await harness.image("wm:1:nowe/" + wmu(harness.origin.url("/logo.png").absoluteString), "/base.png", ext: "png")
            #expect(host.status == 403 && host.text.contains("--watermark-allow-host"), "\(host.text)")
            let scheme = try await harness.image("wm:1:nowe/" + wmu("file:///etc/passwd"), "/base.png", ext: "png")
            #expect(scheme.status == 403)
            let missing = try await harness.image("wm:1:nowe", "/base.png", ext: "png")
            #expect(missing.status == 400 && missing.text.contains("needs a watermark image"), "\(missing.text)")
            // A wmu file that is not an image fails the request as a bad source would, before any decode.
            try Data("not an image".utf8).write(to: marks.appendingPathComponent("text.png"))
            let notImage = try await harness.image("wm:1:nowe/" + wmu("local:///text.png"), "/base.png", ext: "png")
            #expect(notImage.status == 422, "\(notImage.status) \(notImage.text)")
            let garbled = try await harness.image("wm:1:nowe/wmu:***", "/base.png", ext: "png")
            #expect(garbled.status == 400)
        }
        try await ServiceHarness.with(configure: { $0.watermarkAllowHosts = ["127.0.0.1"] }) { (harness) async throws in
            harness.origin.route("/base.png", response: .ok(Self.base, contentType: "image/png"))
            harness.origin.route("/logo.png", response: .ok(Self.blue, contentType: "image/png"))
            let remote = try await harness.image("wm:1:nowe/" + wmu(harness.origin.url("/logo.png").absoluteString), "/base.png", ext: "png")
            #expect(remote.status == 200, "\(remote.text)")
            #expect(try Self.pixel(remote.body, 0, 0) == [0, 0, 255, 255])
            let local = try await harness.image("wm:1:nowe/" + wmu("local:///logo.png"), "/base.png", ext: "png")
            #expect(local.status == 403 && local.text.contains("--watermark-dir"), "\(local.text)")
        }
        // The SSRF guard still applies to an allowed watermark host: 10.0.0.1 is private.
        try await ServiceHarness.with(configure: { $0.watermarkAllowHosts = ["10.0.0.1"] }) { (harness) async throws in
            harness.origin.route("/base.png", response: .ok(Self.base, contentType: "image/png"))
            let guarded = try await harness.image("wm:1:nowe/" + wmu("http://10.0.0.1/logo.png"), "/base.png", ext: "png")
            #expect(guarded.status == 403, "\(guarded.text)")
        }
    }

    @Test("a --watermark that is not an image stops the start: a file at init, a URL before listening")
    func badWatermarkStopsStart() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("logo.png")
        try Data("not an image".utf8).write(to: text)
        var configuration = ImageServerConfiguration()
        configuration.allowsUnsigned = true
        configuration.watermark = text
        #expect { try configuration.checkWatermark(coders: Fixtures.coders) } throws: { error in
            (error as? WebImageError)?.code == .invalidServerConfiguration && (error as? WebImageError)?.message.contains("not a readable image") == true
        }
        configuration.watermark = URL(string: "ftp://example.com/a.png")
        #expect(throws: WebImageError.self) { try configuration.checkWatermark(coders: Fixtures.coders) }
        configuration.watermark = nil
        configuration.watermarkDirectory = directory.appendingPathComponent("missing")
        #expect(throws: WebImageError.self) { try configuration.checkWatermark(coders: Fixtures.coders) }

        let origin = try await LoopbackHTTPServer.start()
        origin.route("/logo.png", response: .ok(Data("not an image".utf8), contentType: "image/png"))
        configuration.watermarkDirectory = nil
        configuration.watermark = origin.url("/logo.png")
        configuration.port = 0
        configuration.urlPolicy = .ssrfGuard(allowHosts: [try HostPattern("127.0.0.1")])
        configuration.drainDelay = .zero
        let server = try ImageServer(configuration: configuration)
        await #expect { try await server.run(gracefulShutdownSignals: []) } throws: { error in
            (error as? WebImageError)?.code == .invalidServerConfiguration
                && (error as? WebImageError)?.message.contains("the watermark \(origin.url("/logo.png").absoluteString)") == true
        }
        #expect(server.port == nil)
        await origin.shutdown()
    }
}
