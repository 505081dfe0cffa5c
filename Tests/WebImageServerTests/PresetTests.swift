import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@testable import WebImageServer

@Suite("Service: presets", .serialized)
struct PresetTests {
    static func presets(_ definitions: String...) throws -> ProcessingPresets {
        var presets = ProcessingPresets()
        for definition in definitions { try presets.define(definition) }
        return presets
    }

    @Test("a preset expands into the same options: the canonical key of pr:NAME is the spelled-out one's")
    func canonicalKeys() throws {
        let presets = try Self.presets("thumb=rs:fill:64:64/q:70/bl:2", "grey=gs:1", "both=pr:thumb:grey")
        let spelled = try ProcessingOptions(segments: ["rs:fill:64:64", "q:70", "bl:2", "gs:1"])
        for segments in [["pr:thumb", "gs:1"], ["preset:thumb:grey"], ["pr:both"], ["pr:thumb", "pr:grey"]] {
            let expanded = try ProcessingOptions(segments: segments.map { $0[...] }, presets: presets)
            #expect(expanded.canonicalKey == spelled.canonicalKey, "\(segments)")
        }
        // Options after a preset override it, in URL order.
        let overridden = try ProcessingOptions(segments: ["pr:thumb", "q:40"], presets: presets)
        #expect(overridden.quality == 40)
        // A default preset comes first; the URL's options win over it.
        let withDefault = try Self.presets("default=q:55/w:30")
        #expect(try ProcessingOptions(segments: [], presets: withDefault).canonicalKey == ProcessingOptions(segments: ["q:55", "w:30"]).canonicalKey)
        #expect(try ProcessingOptions(segments: ["w:90"], presets: withDefault).width == 90)
    }

    @Test("unknown presets, cycles, bad definitions and only-presets refusals name the preset")
    func refusals() throws {
        let presets = try Self.presets("a=pr:b", "b=pr:a", "ok=w:10")
        #expect(throws: WebImageError.self) { try ProcessingOptions(segments: ["pr:nope"], presets: presets) }
        do {
            _ = try ProcessingOptions(segments: ["pr:a"], presets: presets)
            Issue.record("a cycle parsed")
        } catch let error as WebImageError {
            #expect(error.code == .invalidProcessingOptions)
            #expect(error.message.contains("a → b → a"), "\(error.message)")
        }
        do {
            try presets.validate()
            Issue.record("a cycle validated")
        } catch let error as WebImageError {
            #expect(error.code == .invalidServerConfiguration)
            #expect(error.message.hasPrefix("preset 'a'"), "\(error.message)")
        }
        do {
            try Self.presets("big=w:9000").validate(maxDimension: 8192)
            Issue.record("an oversized preset validated")
        } catch let error as WebImageError {
            #expect(error.message.hasPrefix("preset 'big'"), "\(error.message)")
        }
        #expect(throws: WebImageError.self) { try Self.presets("no options") }
        #expect(throws: WebImageError.self) { try Self.presets("bad name=w:1") }
        #expect(throws: WebImageError.self) { try Self.presets("empty=") }
        let file = try ProcessingPresets(fileText: "# comment\n\nthumb = rs:fit:20:20\n  small=w:5  \n")
        #expect(file["thumb"] == ["rs:fit:20:20"])
        #expect(file["small"] == ["w:5"])
        do {
            _ = try ProcessingPresets(fileText: "ok=w:1\nbroken line\n")
            Issue.record("a bad line parsed")
        } catch let error as WebImageError {
            #expect(error.message.hasPrefix("line 2:"), "\(error.message)")
        }
        // Only presets: pr:, or imgproxy's bare NAME:NAME list; nothing else.
        let only = try Self.presets("ok=w:10", "grey=gs:1")
        #expect(try ProcessingOptions(segments: ["pr:ok"], presets: only, onlyPresets: true).width == 10)
        #expect(try ProcessingOptions(segments: ["ok:grey"], presets: only, onlyPresets: true).effects == [.grayscale(1)])
        #expect(throws: WebImageError.self) { try ProcessingOptions(segments: ["w:10"], presets: only, onlyPresets: true) }
    }

    @Test("pr:NAME answers the spelled-out URL's bytes and ETag; default applies to every request; only-presets refuses options")
    func overTheSocket() async throws {
        let presets = try Self.presets("thumb=rs:fill:64:64/q:70", "default=f:png", "wide=w:200")
        try await ServiceHarness.with(configure: { $0.presets = presets }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            let preset = try await harness.image("pr:thumb", "/a.jpg")
            let spelled = try await harness.image("rs:fill:64:64/q:70", "/a.jpg")
            let named = try await harness.image("preset:thumb", "/a.jpg")
            #expect(preset.status == 200, "\(preset.text)")
            #expect(preset.body == spelled.body)
            #expect(preset.header("ETag") == spelled.header("ETag"))
            #expect(named.header("ETag") == spelled.header("ETag"))
            // The default preset's f:png applies to every request.
            #expect(try Fixtures.header(preset.body).format == .png)
            #expect(try Fixtures.header(preset.body).pixelSize == PixelSize(width: 64, height: 64))
            let plain = try await harness.image("w:100", "/a.jpg")
            #expect(try Fixtures.header(plain.body).format == .png)
            #expect(try Fixtures.header(plain.body).pixelSize == PixelSize(width: 100, height: 75))
            let unknown = try await harness.image("pr:nope", "/a.jpg")
            #expect(unknown.status == 400)
            #expect(unknown.text.contains("unknown preset 'nope'"), "\(unknown.text)")
        }
        let only = try Self.presets("thumb=rs:fill:64:64", "grey=gs:1")
        try await ServiceHarness.with(configure: {
            $0.presets = only
            $0.onlyPresets = true
        }) { (harness) async throws in
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            #expect(try await harness.image("pr:thumb", "/a.jpg", ext: "png").status == 200)
            let list = try await harness.image("thumb:grey", "/a.jpg", ext: "png")
            #expect(list.status == 200)
            #expect(try Fixtures.header(list.body).pixelSize == PixelSize(width: 64, height: 64))
            // imgproxy's single bare name, and a base64 source, still read.
            let bare = try await harness.image("thumb", "/a.jpg", ext: "png")
            #expect(bare.status == 200, "\(bare.text)")
            #expect(try Fixtures.header(bare.body).pixelSize == PixelSize(width: 64, height: 64))
            let encoded = Data(harness.origin.url("/a.jpg").absoluteString.utf8).base64URLEncodedString()
            let base64Path = "/pr:thumb/" + encoded + ".png"
            #expect(try await harness.request("/" + ServiceHarness.key.signature(for: base64Path) + base64Path).status == 200)
            let refused = try await harness.image("rs:fill:64:64", "/a.jpg", ext: "png")
            #expect(refused.status == 400)
            #expect(refused.text.contains("only presets"), "\(refused.text)")
        }
    }

    @Test("reloading the presets file: new requests get the new set, a request in flight keeps the old one, a bad file keeps the old set")
    func reload() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("presets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("presets.conf")
        try "# thumbnails\nthumb=rs:fit:40:40\n".write(to: file, atomically: true, encoding: .utf8)
        try await ServiceHarness.with(configure: { $0.presetsFile = file }) { (harness) async throws in
            let gate = TestGate()
            harness.origin.route("/a.jpg", response: .ok(Fixtures.jpeg, contentType: "image/jpeg"))
            harness.origin.route(
                "/slow.jpg",
                response: TestResponse(headers: [("Content-Type", "image/jpeg")], body: TestResponse.steps(Fixtures.jpeg), beforeHead: [.wait(gate)]))
            #expect(try Fixtures.header(try await harness.image("pr:thumb", "/a.jpg", ext: "png").body).pixelSize == PixelSize(width: 40, height: 30))
            // A request parsed with the old set waits for its origin while the file changes.
            let inFlight = Task { try await harness.image("pr:thumb", "/slow.jpg", ext: "png") }
            await gate.waitForArrivals(1)
            try "thumb=rs:fit:80:80\n".write(to: file, atomically: true, encoding: .utf8)
            try harness.server.reloadPresets()
            gate.open()
            let old = try await inFlight.value
            #expect(old.status == 200)
            #expect(try Fixtures.header(old.body).pixelSize == PixelSize(width: 40, height: 30))
            #expect(try Fixtures.header(try await harness.image("pr:thumb", "/a.jpg", ext: "png").body).pixelSize == PixelSize(width: 80, height: 60))
            // A bad file is refused, naming the preset, and the set in force stays.
            try "thumb=rs:fit:80:80\nbroken=zz:1\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: WebImageError.self) { try harness.server.reloadPresets() }
            #expect(try Fixtures.header(try await harness.image("pr:thumb", "/a.jpg", ext: "png").body).pixelSize == PixelSize(width: 80, height: 60))
        }
    }
}
