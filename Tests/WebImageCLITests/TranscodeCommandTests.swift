import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `webimage convert` between the animated formats keeps every frame, each stored and played
/// duration and the loop count; `--first-frame` keeps one frame; `info` prints both durations.
@Suite("webimage convert between animated formats", .timeLimit(.minutes(5)))
struct TranscodeCommandTests {
    /// Stored delays every format holds exactly: 0 and 10 ms (played as 100 ms), 20 ms, 70 ms, 1.5 s.
    static let stored = [0, 0.01, 0.02, 0.07, 1.5]
    static let played = [0.1, 0.1, 0.02, 0.07, 1.5]

    /// Five distinct 32×32 frames with `stored` delays, encoded by our GIF encoder.
    static func gif(loopCount: Int) throws -> Data {
        let frames = stored.indices.map {
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: played[$0])
        }
        let animation = InMemoryAnimation(frames: frames, loopCount: loopCount, storedDurations: stored)
        return try ImageCodersManager.standard().encode(
            Image(pixels: frames[0].pixels, animation: animation), as: .gif, options: ImageEncodingOptions())
    }

    /// The two orders that between them convert every pair of formats both ways.
    static let chains: [[(String, String, ImageFormat)]] = [
        [("a.gif", "b.webp", .webp), ("b.webp", "c.png", .apng), ("c.png", "d.gif", .gif)],
        [("a.gif", "b.apng", .apng), ("b.apng", "c.webp", .webp), ("c.webp", "d.gif", .gif)],
    ]

    @Test(
        "GIF → WebP → APNG → GIF (and GIF → APNG → WebP → GIF) keep frames, durations and the loop count",
        arguments: [0, 1, 3], [0, 1])
    func roundTrip(loopCount: Int, chain: Int) async throws {
        try await withTemporaryDirectory { directory in
            try Self.gif(loopCount: loopCount).write(to: directory.appendingPathComponent("a.gif"))
            for (input, output, format) in Self.chains[chain] {
                let run = try await CLI.run(["convert", input, output], in: directory)
                #expect(run.status == 0, "\(input) → \(output): \(run.stderr)")
                let data = try Data(contentsOf: directory.appendingPathComponent(output))
                let header = try ImageCodersManager.standard().readHeader(data)
                #expect(header.format == format)
                #expect(header.frameCount == 5, "\(output)")
                #expect(header.loopCount == loopCount, "\(output)")
                #expect(header.storedFrameDurations == Self.stored, "\(output)")
                #expect(header.frameDurations == Self.played, "\(output)")
                let decoded = try ImageCodersManager.standard().decode(data)
                let animation = try #require(decoded.animation)
                #expect((0..<5).map { animation.storedDuration(at: $0) } == Self.stored, "\(output)")
                #expect((0..<5).map { animation.duration(at: $0) } == Self.played, "\(output)")
            }
            let info = try await CLI.run(["info", "d.gif", "--json"], in: directory)
            let object = try #require(try info.jsonLines().first)
            #expect(object["durations"] as? [Double] == Self.played)
            #expect(object["storedDurations"] as? [Double] == Self.stored)
            #expect(object["loopCount"] as? Int == loopCount)
        }
    }

    @Test("--first-frame keeps one frame", arguments: ["gif", "webp", "png"])
    func firstFrame(outputExtension: String) async throws {
        try await withTemporaryDirectory { directory in
            try Self.gif(loopCount: 0).write(to: directory.appendingPathComponent("a.gif"))
            let run = try await CLI.run(["convert", "a.gif", "one.\(outputExtension)", "--first-frame"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let data = try Data(contentsOf: directory.appendingPathComponent("one.\(outputExtension)"))
            let header = try ImageCodersManager.standard().readHeader(data)
            #expect(header.frameCount == 1)
            #expect(header.frameDurations == nil)
            let image = try ImageCodersManager.standard().decode(data, options: ImageDecodingOptions(alphaMode: .straight))
            #expect(image.animation == nil)
            if outputExtension != "webp" {  // lossy by default
                #expect(image.pixels == ImageFixtures.movingSquare(index: 0))
            }
        }
    }

    @Test("info prints durations as played and as stored")
    func infoText() async throws {
        try await withTemporaryDirectory { directory in
            try Self.gif(loopCount: 3).write(to: directory.appendingPathComponent("a.gif"))
            let run = try await CLI.run(["info", "a.gif"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.contains("durations:    100 ms ×2, 20 ms, 70 ms, 1500 ms (played; total 1.79 s)"), "\(run.stdout)")
            #expect(run.lines.contains("stored:       0 ms, 10 ms, 20 ms, 70 ms, 1500 ms (as the file stores them)"), "\(run.stdout)")
        }
    }
}
