import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `webimage info` reads headers only, prints unescaped JSON and a JSON error object.
@Suite("info: headers and JSON")
struct InfoHeaderTests {
    @Test("info --json prints a JSON error object for a file it cannot read as an image")
    func jsonErrorObject() async throws {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("sub/not-an-image.png")
            try FileManager.default.createDirectory(
                at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("hello, not an image".utf8).write(to: input)
            let run = try await CLI.run(["info", input.path, "--json"], in: directory)
            #expect(run.status == 1)
            #expect(run.stderr.contains("badImageData"))
            let objects = try run.jsonLines()
            #expect(objects.count == 1)
            let error = objects.first?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "badImageData")
            #expect((error?["message"] as? String)?.isEmpty == false)
            #expect(objects.first?["source"] as? String == input.path)
            #expect(!run.stdout.contains("\\/"), "slashes are not escaped: \(run.stdout)")
        }
    }

    @Test("info --json does not escape the slashes of the path")
    func unescapedSlashes() async throws {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("a/b.gif")
            try FileManager.default.createDirectory(
                at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Fixture.gif(frames: 3).write(to: input)
            let run = try await CLI.run(["info", input.path, "--json"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("\"file\":\"\(input.path)\""), "\(run.stdout)")
            let object = try #require(try run.jsonLines().first)
            #expect(object["frameCount"] as? Int == 3)
            #expect(object["format"] as? String == "gif")
            #expect((object["durations"] as? [Double])?.count == 3)
        }
    }

    @Test("info of a 20,000-frame GIF counts its frames from the blocks")
    func countsFramesWithoutDecoding() async throws {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("frames.gif")
            try DecompressionBombs.manyFrameGIF().write(to: input)
            let run = try await CLI.run(["info", input.path], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("frames:       20000"), "\(run.stdout)")
            #expect(run.stdout.contains("dimensions:   500×500"), "\(run.stdout)")
            #expect(run.stdout.contains("loop count:   forever"), "\(run.stdout)")
        }
    }

    @Test("convert and fetch --max-pixels refuse a larger source before decoding; --thumbnail with --resize drafts")
    func sourcePixelLimit() async throws {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("in.png")
            try Fixture.png(width: 400, height: 300).write(to: input)
            let refused = try await CLI.run(["convert", input.path, "out.png", "--max-pixels", "100000"], in: directory)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("400×300 pixels, over the limit of 100000"), "\(refused.stderr)")
            let url = "data:image/png;base64," + (try Data(contentsOf: input)).base64EncodedString()
            let fetched = try await CLI.run(
                ["fetch", url, "-o", "out", "--no-cache", "--max-pixels", "100000"], in: directory)
            #expect(fetched.status == 1)
            #expect(fetched.stderr.contains("over the limit of 100000") || fetched.stdout.contains("over the limit of 100000"),
                    "\(fetched.stdout)\(fetched.stderr)")
            let allowed = try await CLI.run(
                ["convert", input.path, "out.png", "--max-pixels", "120000", "--thumbnail", "200", "--resize", "50x50", "--mode", "fit"],
                in: directory)
            #expect(allowed.status == 0, "\(allowed.stderr)")
            let written = try ImageCodersManager.standard().decode(
                try Data(contentsOf: directory.appendingPathComponent("out.png")), options: ImageDecodingOptions())
            #expect(written.pixelSize == PixelSize(width: 50, height: 38))
        }
    }

    @Test("convert --max-animation-pixels refuses an animation over the budget")
    func convertAnimationBudget() async throws {
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("in.gif")
            try Fixture.gif(frames: 3).write(to: input)
            let refused = try await CLI.run(
                ["convert", input.path, "out.gif", "--max-animation-pixels", "2048"], in: directory)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("tooLarge"), "\(refused.stderr)")
            let invalid = try await CLI.run(["convert", input.path, "out.gif", "--max-animation-pixels", "0"], in: directory)
            #expect(invalid.status == 2)
            let allowed = try await CLI.run(
                ["convert", input.path, "out.gif", "--max-animation-pixels", "4000"], in: directory)
            #expect(allowed.status == 0, "\(allowed.stderr)")
        }
    }
}
