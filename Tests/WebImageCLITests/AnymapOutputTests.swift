import Foundation
import Testing
import WebImageCodecs
import WebImageHTTP
import WebImagePNM
import WebImageTesting

/// `webimage convert IN OUT.ppm|pgm|pam|pnm` writes the decoded pixels alone, as djpeg does, so
/// that a process per file can decode; and the start-up shortcuts answer as ArgumentParser did.
@Suite("webimage convert to Netpbm maps, and the start-up shortcuts", .timeLimit(.minutes(5)))
struct AnymapOutputTests {
    @Test("a JPEG to .ppm holds the decode's pixels; .pgm is grey; a translucent PNG to .pam keeps alpha")
    func convertsToMaps() async throws {
        try await withTemporaryDirectory { directory in
            let coders = ImageCodersManager.standard()
            let jpeg = try coders.encode(
                Image(pixels: ImageFixtures.gradient(width: 120, height: 80)), as: .jpeg, options: ImageEncodingOptions())
            try jpeg.write(to: directory.appendingPathComponent("photo.jpg"))
            let translucent = ImageFixtures.translucentGradient(width: 30, height: 20)
            try coders.encode(Image(pixels: translucent), as: .png, options: ImageEncodingOptions())
                .write(to: directory.appendingPathComponent("glass.png"))

            for (input, output, format) in [("photo.jpg", "out.ppm", ImageFormat.ppm), ("photo.jpg", "out.pgm", .pgm), ("glass.png", "out.pam", .pam)] {
                let run = try await CLI.run(["convert", input, output], in: directory)
                #expect(run.status == 0, "\(output): \(run.stderr)")
                let written = try Data(contentsOf: directory.appendingPathComponent(output))
                #expect(ImageFormat.detect(in: written) == format)
            }
            let decoded = try coders.decode(jpeg)
            let ppm = try PNMCoder().decode(try Data(contentsOf: directory.appendingPathComponent("out.ppm")))
            #expect(ppm.pixels == decoded.pixels)
            let pgm = try PNMCoder().decode(try Data(contentsOf: directory.appendingPathComponent("out.pgm")))
            #expect(pgm.pixelSize == decoded.pixelSize && pgm.pixels[5, 5].r == pgm.pixels[5, 5].b)
            let pam = try PNMCoder().decode(try Data(contentsOf: directory.appendingPathComponent("out.pam")))
            #expect(pam.pixels == translucent)
        }
    }

    @Test("a batch with --format ppm names every output .ppm; info reads a map's header")
    func batchAndInfo() async throws {
        try await withTemporaryDirectory { directory in
            let coders = ImageCodersManager.standard()
            for name in ["a.png", "b.jpg"] {
                let format: ImageFormat = name.hasSuffix("png") ? .png : .jpeg
                try coders.encode(Image(pixels: ImageFixtures.gradient(width: 16, height: 12)), as: format, options: ImageEncodingOptions())
                    .write(to: directory.appendingPathComponent(name))
            }
            let run = try await CLI.run(["convert", "a.png", "b.jpg", "-o", "maps", "--format", "ppm"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            for name in ["a.ppm", "b.ppm"] {
                let data = try Data(contentsOf: directory.appendingPathComponent("maps").appendingPathComponent(name))
                #expect(data.starts(with: Data("P6\n16 12\n255\n".utf8)), "\(name)")
            }
            let info = try await CLI.run(["info", "maps/a.ppm", "--json"], in: directory)
            let object = try #require(try info.jsonLines().first)
            #expect(object["format"] as? String == "ppm")
            #expect(object["width"] as? Int == 16)
        }
    }

    @Test("--version answers before the command tree is built, as ArgumentParser printed it; cache's commands keep their names")
    func startupShortcuts() async throws {
        try await withTemporaryDirectory { directory in
            let version = try await CLI.run(["--version"], in: directory)
            #expect(version.status == 0)
            #expect(version.stdout == HTTPImageLoaderConfiguration.webImageVersion + "\n")
            let help = try await CLI.run(["cache", "--help"], in: directory)
            #expect(help.status == 0)
            for name in ["stats", "clean", "clear", "purge", "path"] { #expect(help.stdout.contains("  \(name) "), "\(name)") }
            let path = try await CLI.run(["cache", "path"], in: directory)
            #expect(path.status == 0, "\(path.stderr)")
            #expect(path.stdout.contains("xdg-cache"))
        }
    }
}
