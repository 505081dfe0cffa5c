import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

@Suite("webimage with JPEG XL, TIFF and SVG", .timeLimit(.minutes(3)))
struct NewFormatsCommandTests {
    @Test("convert writes .jxl and .tif, info reads them and an SVG from their headers")
    func convertAndInfo() async throws {
        let coders = ImageCodersManager.standard()
        let source = ImageFixtures.translucentGradient(width: 40, height: 30)
        try await withTemporaryDirectory { directory in
            try coders.encode(Image(pixels: source), as: .png, options: ImageEncodingOptions())
                .write(to: directory.appendingPathComponent("a.png"))
            try Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"24\" height=\"12\"/>".utf8)
                .write(to: directory.appendingPathComponent("d.svg"))
            for (output, format) in [("b.jxl", "jxl"), ("c.tif", "tiff")] {
                let run = try await CLI.run(["convert", "a.png", output], in: directory)
                #expect(run.status == 0, "\(output): \(run.stderr)")
                let info = try await CLI.run(["info", output, "--json"], in: directory)
                let object = try #require(try info.jsonLines().first, "\(info.stdout) \(info.stderr)")
                #expect(object["format"] as? String == format)
            }
            // TIFF is lossless: the pixels come back exactly.
            let tiff = try coders.decode(Data(contentsOf: directory.appendingPathComponent("c.tif")))
            #expect(tiff.pixels == source)
            let svg = try await CLI.run(["info", "d.svg", "--json"], in: directory)
            let object = try #require(try svg.jsonLines().first, "\(svg.stdout) \(svg.stderr)")
            #expect(object["format"] as? String == "svg")
            let rendered = try await CLI.run(["convert", "d.svg", "e.png"], in: directory)
            #expect(rendered.status == 0, "\(rendered.stderr)")
            #expect(try coders.decode(Data(contentsOf: directory.appendingPathComponent("e.png"))).pixelSize
                == PixelSize(width: 24, height: 12))
        }
    }

    @Test("fetch --format jxl and --format tiff re-encode")
    func fetchFormats() async throws {
        let coders = ImageCodersManager.standard()
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("a.png")
            try coders.encode(Image(pixels: ImageFixtures.gradient(width: 16, height: 16)), as: .png, options: .init())
                .write(to: input)
            for format in ["jxl", "tiff"] {
                let run = try await CLI.run(
                    ["fetch", input.absoluteString, "--format", format, "-o", format, "--no-cache"], in: directory)
                #expect(run.status == 0, "\(format): \(run.stderr)")
                let written = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(format).path)
                let file = try #require(written.first)
                let data = try Data(contentsOf: directory.appendingPathComponent(format).appendingPathComponent(file))
                #expect(ImageFormat.detect(in: data) == (format == "jxl" ? .jpegXL : .tiff), "\(file)")
            }
        }
    }

    @Test("corrupt TIFF, JPEG XL and SVG files fail with one typed error line; libtiff and librsvg print nothing")
    func librariesStaySilent() async throws {
        let coders = ImageCodersManager.standard()
        try await withTemporaryDirectory { directory in
            let image = Image(pixels: ImageFixtures.gradient(width: 16, height: 16))
            var tiff = [UInt8](try coders.encode(image, as: .tiff, options: .init()))
            tiff.removeLast(tiff.count / 3)
            var jxl = [UInt8](try coders.encode(image, as: .jpegXL, options: .init()))
            jxl.removeLast(jxl.count / 3)
            let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"1\" height=\"1\"/><g>".utf8)
            for (name, bytes) in [("x.tif", tiff), ("x.jxl", jxl), ("x.svg", svg)] {
                try Data(bytes).write(to: directory.appendingPathComponent(name))
                // A still JPEG XL's header is whole in its first bytes: `info` reads it, `convert` fails.
                let commands = name == "x.jxl" ? [["convert", name, "out.png"]] : [["info", name], ["convert", name, "out.png"]]
                for command in commands {
                    let run = try await CLI.run(command, in: directory)
                    #expect(run.status == 1, "\(command): \(run.stdout) \(run.stderr)")
                    // Debian 12's libjxl 0.7 is built to print its failure trace (JXL_FAILURE lines) to
                    // standard error, with no API to turn it off: for JPEG XL only our line is counted.
                    let lines = run.stderr.split(separator: "\n").filter { name != "x.jxl" || !$0.hasPrefix("./lib/jxl/") }
                    #expect(lines.count == 1 && lines[0].hasPrefix("webimage: error:"), "\(command): \(run.stderr)")
                    #expect(lines.first?.contains("badImageData") == true, "\(command): \(run.stderr)")
                }
            }
        }
    }
}
