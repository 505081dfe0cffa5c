import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

/// Issue 26: `--metadata strip|copyright|keep|keep-all` on `convert`, `fetch` and `serve`.
@Suite("webimage --metadata")
struct MetadataCommandTests {
    /// A 64×32 JPEG with orientation 6, a copyright and a GPS position in EXIF and XMP, and IPTC.
    static func photo() throws -> Data {
        MetadataFixtures.jpeg(
            try Fixture.jpeg(width: 64, height: 32), exif: MetadataFixtures.exif(), xmp: MetadataFixtures.xmp(),
            iptc: MetadataFixtures.iptc())
    }

    /// What `data`'s EXIF says: the copyright, whether it has GPS, the orientation.
    static func exif(_ data: Data) throws -> (copyright: String?, gps: Bool, orientation: Int?)? {
        guard let exif = try ImageCodersManager.standard().readHeader(data).metadata?.exif else { return nil }
        let structure = try ExifStructure(parsing: [UInt8](exif))
        return (
            structure.string(ExifStructure.Tag.copyright, in: structure.ifd0), structure.gps != nil,
            structure.integer(ExifStructure.Tag.orientation, in: structure.ifd0)
        )
    }

    @Test("convert strips by default; copyright, keep and keep-all keep what they say")
    func convert() async throws {
        try await withTemporaryDirectory { directory in
            try Self.photo().write(to: directory.appendingPathComponent("photo.jpg"))
            for (arguments, output) in [
                ([], "strip.webp"), (["--metadata", "copyright"], "copyright.webp"), (["--metadata", "keep"], "keep.png"),
                (["--metadata", "keep-all"], "all.jpg"),
            ] {
                let run = try await CLI.run(["convert", "photo.jpg", output] + arguments, in: directory)
                #expect(run.status == 0, "\(run.stderr)")
            }
            let written = { (name: String) in try Data(contentsOf: directory.appendingPathComponent(name)) }
            #expect(try Self.exif(try written("strip.webp")) == nil)
            let copyright = try #require(try Self.exif(try written("copyright.webp")))
            #expect(copyright.copyright == MetadataFixtures.copyright && !copyright.gps && copyright.orientation == nil)
            let keep = try #require(try Self.exif(try written("keep.png")))
            #expect(keep.copyright == MetadataFixtures.copyright && !keep.gps && keep.orientation == 1)
            let all = try #require(try Self.exif(try written("all.jpg")))
            #expect(all.copyright == MetadataFixtures.copyright && all.gps && all.orientation == 1)
            // The pixels were turned upright once: stored 64×32 with orientation 6, written 32×64.
            #expect(try ImageCodersManager.standard().readHeader(try written("all.jpg")).pixelSize == PixelSize(width: 32, height: 64))

            let bad = try await CLI.run(["convert", "photo.jpg", "x.png", "--metadata", "gps"], in: directory)
            #expect(bad.status == 64 || bad.status == 2, "\(bad.status)")
        }
    }

    @Test("fetch re-encodes with the policy; cache entries of two policies stay apart")
    func fetch() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            origin.route("/photo.jpg", response: .ok(try Self.photo(), contentType: "image/jpeg"))
            let url = origin.url("/photo.jpg").absoluteString
            let cache = directory.appendingPathComponent("cache").path
            for (policy, folder) in [("keep", "keep"), ("strip", "strip"), ("keep-all", "all")] {
                let run = try await CLI.run(
                    ["fetch", url, "-o", folder, "--format", "png", "--thumbnail", "48", "--metadata", policy, "--cache-dir", cache],
                    in: directory)
                #expect(run.status == 0, "\(run.stderr)")
            }
            func output(_ folder: String) throws -> Data {
                let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
                return try Data(contentsOf: directory.appendingPathComponent(folder).appendingPathComponent(try #require(names.first)))
            }
            let keep = try #require(try Self.exif(try output("keep")))
            #expect(keep.copyright == MetadataFixtures.copyright && !keep.gps)
            #expect(try Self.exif(try output("strip")) == nil)
            #expect(try #require(try Self.exif(try output("all"))).gps)
        }
    }

    @Test("serve --metadata and WEBIMAGE_METADATA set the default; sm:1 strips; a bad value exits 2")
    func serve() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            origin.route("/photo.jpg", response: .ok(try Self.photo(), contentType: "image/jpeg"))
            let source = origin.url("/photo.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log"],
                environment: ["WEBIMAGE_METADATA": "keep-all"], in: directory)
            let all = try await served.get("/unsafe/rs:fit:40:40/plain/\(source)@jpg")
            #expect(all.status == 200)
            #expect(try #require(try Self.exif(all.body)).gps)
            let stripped = try await served.get("/unsafe/rs:fit:40:40/sm:1/plain/\(source)@jpg")
            #expect(try Self.exif(stripped.body) == nil)
            #expect(try await served.terminate() == 0)

            let flagged = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log", "--metadata", "copyright"],
                environment: ["WEBIMAGE_METADATA": "keep-all"], in: directory)
            let copyright = try #require(try Self.exif(try await flagged.get("/unsafe/rs:fit:40:40/plain/\(source)@webp").body))
            #expect(copyright.copyright == MetadataFixtures.copyright && !copyright.gps)
            #expect(try await flagged.terminate() == 0)

            let bad = try await CLI.run(["serve", "--allow-unsigned"], in: directory, environment: ["WEBIMAGE_METADATA": "gps"])
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("WEBIMAGE_METADATA=gps"), "\(bad.stderr)")
        }
    }

    @Test("info names the metadata blocks, the GPS position and the copyright, in text and JSON")
    func info() async throws {
        try await withTemporaryDirectory { directory in
            try Self.photo().write(to: directory.appendingPathComponent("photo.jpg"))
            let text = try await CLI.run(["info", "photo.jpg"], in: directory)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("metadata:     EXIF "), "\(text.stdout)")
            #expect(text.stdout.contains("; GPS position; © \(MetadataFixtures.copyright)"), "\(text.stdout)")
            let json = try await CLI.run(["info", "photo.jpg", "--json"], in: directory)
            let metadata = try #require(try json.jsonLines().first?["metadata"] as? [String: Any])
            #expect(metadata["gps"] as? Bool == true)
            #expect(metadata["iptcBytes"] as? Int == MetadataFixtures.iptc().count)
            try Fixture.png().write(to: directory.appendingPathComponent("plain.png"))
            #expect(try await CLI.run(["info", "plain.png"], in: directory).stdout.contains("metadata:     none"))

            // A GIF carries the XMP only: info names it, and its GPS position only under keep-all.
            for (policy, gps) in [("keep", false), ("keep-all", true)] {
                let converted = try await CLI.run(["convert", "photo.jpg", "\(policy).gif", "--metadata", policy], in: directory)
                #expect(converted.status == 0, "\(converted.stderr)")
                let gif = try await CLI.run(["info", "\(policy).gif"], in: directory)
                #expect(gif.stdout.contains("metadata:     XMP "), "\(gif.stdout)")
                #expect(gif.stdout.contains("GPS position") == gps, "\(gif.stdout)")
            }
        }
    }
}
