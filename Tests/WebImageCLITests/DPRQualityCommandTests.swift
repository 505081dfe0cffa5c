import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `--dpr` and `--format-quality` on the command line, as `serve`'s `dpr:` and `--format-quality`.
@Suite("webimage --dpr and --format-quality", .serialized)
struct DPRQualityCommandTests {
    @Test("convert --dpr multiplies --resize; --format-quality picks the quality of its format; serve refuses bad tables with exit 2")
    func flags() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.jpeg(width: 640, height: 400).write(to: directory.appendingPathComponent("in.jpg"))
            let coders = ImageCodersManager.standard()
            func convert(_ output: String, _ arguments: [String]) async throws -> Data {
                let run = try await CLI.run(["convert", "in.jpg", output] + arguments, in: directory)
                #expect(run.status == 0, "\(arguments): \(run.stderr)")
                return try Data(contentsOf: directory.appendingPathComponent(output))
            }
            let doubled = try await convert("a.png", ["--resize", "100x100", "--mode", "fit", "--dpr", "2"])
            #expect(try coders.readHeader(doubled).pixelSize == PixelSize(width: 200, height: 125))
            let thumbnail = try await convert("b.png", ["--thumbnail", "50", "--dpr", "1.5"])
            #expect(try coders.readHeader(thumbnail).pixelSize == PixelSize(width: 75, height: 47))

            let byFormat = try await convert("c.webp", ["--format-quality", "webp=30,avif=50", "--quality", "95"])
            #expect(byFormat == (try await convert("d.webp", ["--quality", "30"])))
            #expect(byFormat != (try await convert("e.webp", ["--quality", "95"])))
            // A format not in the table keeps --quality.
            #expect(try await convert("f.jpg", ["--format-quality", "webp=30", "--quality", "70"]) == (try await convert("g.jpg", ["--quality", "70"])))

            for (arguments, message) in [
                (["convert", "in.jpg", "x.png", "--dpr", "0"], "--dpr must be greater than 0"),
                (["convert", "in.jpg", "x.png", "--format-quality", "webp=0"], "--format-quality webp=0"),
                (["serve", "--allow-unsigned", "--format-quality", "nope=5"], "--format-quality nope=5: unknown format 'nope'"),
            ] {
                let run = try await CLI.run(arguments, in: directory)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }
    }
}
