import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `webimage convert` and `info` on decompression bombs, as child processes whose peak memory the
/// kernel measures (`wait4`'s `ru_maxrss`, through the `webimage-peak-rss` launcher). Memory is
/// asserted, never time.
///
/// `WEBIMAGE_BOMB_EXECUTABLE` runs another build of the tool (e.g. an older one, to measure the
/// figures before a fix) and `WEBIMAGE_BOMB_TIME_LIMIT` kills each run after that many seconds
/// (default 300); every run prints its figures.
@Suite("Decompression bombs through the CLI", .serialized)
struct DecompressionBombCLITests {
    /// The ceiling for any refused file, and for reading any header.
    static let memoryCeiling = 64 * 1_048_576

    static var executable: URL {
        get throws {
            if let path = ProcessInfo.processInfo.environment["WEBIMAGE_BOMB_EXECUTABLE"], !path.isEmpty {
                return URL(fileURLWithPath: path)
            }
            return try CLI.executable()
        }
    }

    static var timeLimit: Int {
        ProcessInfo.processInfo.environment["WEBIMAGE_BOMB_TIME_LIMIT"].flatMap(Int.init) ?? 300
    }

    static func run(_ arguments: [String], in directory: URL, label: String) async throws -> ChildResourceUsage {
        let usage = try await ChildResourceUsage.run(try executable, arguments, in: directory, limit: timeLimit)
        print(
            String(
                format: "bomb %@: %@ → exit %d%@, peak RSS %.1f MB, %.2f s", label, arguments[0], usage.status,
                usage.killed ? " (killed at the time limit)" : "", usage.peakMegabytes, usage.seconds))
        return usage
    }

    @Test("convert refuses every bomb with a typed error, under 64 MB", arguments: DecompressionBombs.refused.map(\.name))
    func convertRefuses(name: String) async throws {
        let data = try #require(DecompressionBombs.refused.first { $0.name == name }?.data)
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("bomb.bin")
            try data.write(to: input)
            let output = directory.appendingPathComponent("out.png")
            let usage = try await Self.run(["convert", input.path, output.path], in: directory, label: name)
            #expect(usage.status == 1, "\(usage.stderr)")
            #expect(usage.stderr.contains("tooLarge") || usage.stderr.contains("badImageData"), "\(usage.stderr)")
            #expect(usage.peakResidentBytes < Self.memoryCeiling, "\(name): peak RSS \(usage.peakMegabytes) MB")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test(
        "info reads every bomb's header without decoding, under 64 MB",
        arguments: (DecompressionBombs.refused + [("webp-lossless-10000x10000", DecompressionBombs.webPLossless())])
            .map(\.0))
    func infoReadsHeaders(name: String) async throws {
        let all = DecompressionBombs.refused + [("webp-lossless-10000x10000", DecompressionBombs.webPLossless())]
        let data = try #require(all.first { $0.0 == name }?.1)
        let expected = try ImageCodersManager.standard().readHeader(data)
        try await withTemporaryDirectory { directory in
            let input = directory.appendingPathComponent("bomb.bin")
            try data.write(to: input)
            let usage = try await Self.run(["info", input.path, "--json"], in: directory, label: name)
            #expect(usage.status == 0, "\(usage.stderr)")
            #expect(usage.peakResidentBytes < Self.memoryCeiling, "\(name): peak RSS \(usage.peakMegabytes) MB")
            let object = try JSONSerialization.jsonObject(with: Data(usage.stdout.utf8)) as? [String: Any]
            #expect(object?["width"] as? Int == expected.pixelSize.width)
            #expect(object?["height"] as? Int == expected.pixelSize.height)
            #expect(object?["frameCount"] as? Int == expected.frameCount)
        }
    }
}
