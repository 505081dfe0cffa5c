import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `webimage convert` streams an animation frame by frame: a 300-frame 1000×1000 GIF (1.2 GB of
/// canvases if every frame were held) converts to GIF, WebP and APNG within a bound all frames
/// would exceed. Peak memory is the child's `ru_maxrss` through `webimage-peak-rss`; time is
/// printed, never asserted.
@Suite("Streaming transcoding through the CLI", .serialized)
struct TranscodeMemoryTests {
    static let frameCount = 300
    static let side = 1000
    /// Far below 300 canvases of 4 MB, far above a few canvases and the encoded output.
    static let ceiling = 200 * 1_048_576

    /// Frame `index`: a dark background with a 100×100 square whose place moves with the index,
    /// made only when the encoder asks for it (the test process never holds every frame either).
    struct MovingSquareFrames: AnimatedImageSource {
        var frameCount: Int { TranscodeMemoryTests.frameCount }
        var loopCount: Int { 3 }
        var canvasSize: PixelSize { PixelSize(width: TranscodeMemoryTests.side, height: TranscodeMemoryTests.side) }
        func duration(at index: Int) -> Double { 0.04 }
        func frame(at index: Int) throws -> AnimationFrame {
            let side = TranscodeMemoryTests.side
            var pixels = PixelBuffer(width: side, height: side, alphaMode: .straight, fill: RGBA8(r: 20, g: 30, b: 90))
            let x0 = (index * 3) % (side - 100), y0 = (index * 7) % (side - 100)
            let square = Array(repeatElement([UInt8]([230, 40, 40, 255]), count: 100).joined())
            for y in y0..<y0 + 100 {
                let start = (y * side + x0) * 4
                pixels.bytes.replaceSubrange(start..<start + square.count, with: square)
            }
            return AnimationFrame(pixels: pixels, duration: duration(at: index))
        }
    }

    /// The input GIF, encoded once by our GIF encoder for all three runs.
    static let gif = Result {
        let frames = MovingSquareFrames()
        return try ImageCodersManager.standard().encode(
            Image(pixels: try frames.frame(at: 0).pixels, format: .gif, animation: frames), as: .gif,
            options: ImageEncodingOptions())
    }

    static func input(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("long.gif")
        try gif.get().write(to: url)
        return url
    }

    @Test("convert long.gif keeps every frame in bounded memory", arguments: ["gif", "webp", "png"])
    func streams(outputExtension: String) async throws {
        try await withTemporaryDirectory { directory in
            let input = try Self.input(in: directory)
            let output = directory.appendingPathComponent("out.\(outputExtension)")
            let usage = try await ChildResourceUsage.run(
                try CLI.executable(), ["convert", input.path, output.path], in: directory, limit: 900)
            print(
                String(
                    format: "transcode 300×1000×1000 GIF → %@: exit %d, peak RSS %.1f MB, %.1f s, %d bytes",
                    outputExtension, usage.status, usage.peakMegabytes, usage.seconds,
                    (try? Data(contentsOf: output).count) ?? -1))
            #expect(usage.status == 0, "\(usage.stderr)")
            #expect(usage.peakResidentBytes < Self.ceiling, "peak RSS \(usage.peakMegabytes) MB")
            let header = try ImageCodersManager.standard().readHeader(try Data(contentsOf: output))
            #expect(header.frameCount == Self.frameCount)
            #expect(header.loopCount == 3)
            #expect(header.storedFrameDurations?.allSatisfy { abs($0 - 0.04) < 1e-9 } == true)
        }
    }
}
