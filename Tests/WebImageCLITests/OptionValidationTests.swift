import Foundation
import Testing
import WebImageCodecs

@Suite("webimage: numeric options are validated, sizes bounded, file errors typed", .timeLimit(.minutes(3)))
struct OptionValidationTests {
    /// A tiny PNG as a data: URL: fetch needs nothing else.
    static func dataURL() throws -> String {
        "data:image/png;base64," + (try Fixture.png(width: 8, height: 6)).base64EncodedString()
    }

    @Test func impossibleValuesAreUsageErrorsWithAMessage() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.png().write(to: directory.appendingPathComponent("in.png"))
            let url = try Self.dataURL()
            let convert = ["convert", "in.png", "out.png"]
            let fetch = ["fetch", url, "-o", "out", "--no-cache"]
            let cases: [(arguments: [String], message: String)] = [
                (convert + ["--resize", "100000x100000"], "over the limit of 100000000"),
                (convert + ["--resize", "20000x20000", "--upscale"], "over the limit of 100000000"),
                (convert + ["--resize", "9223372036854775807x1"], "over the limit"),
                (convert + ["--resize", "99999999999999999999x99999999999999999999"], "more than 9223372036854775807 pixels"),
                (convert + ["--resize", "0x5"], "at least 1"),
                (convert + ["--resize", "12x"], "--resize"),
                (convert + ["--upscale"], "only apply with --resize"),
                (convert + ["--thumbnail", "0"], "--thumbnail must be between 1 and 100000000"),
                (convert + ["--thumbnail", "100000001"], "--thumbnail must be between 1 and 100000000"),
                (convert + ["--quality", "101"], "--quality must be between 0 and 100"),
                (convert + ["--max-pixels", "0"], "--max-pixels must be between 1 and 1000000000"),
                (fetch + ["--max-pixels", "1000000001"], "--max-pixels must be between 1 and 1000000000"),
                (fetch + ["--timeout", "1e300"], "at most 86400"),
                (fetch + ["--timeout", "inf"], "finite"),
                (fetch + ["--timeout", "nan"], "finite"),
                (fetch + ["--timeout", "0"], "above 0"),
                (fetch + ["--timeout", "0.0004"], "rounds to 0 ms"),
                (fetch + ["--timeout", "86401"], "at most 86400"),
                (fetch + ["--concurrency", "9223372036854775807"], "--concurrency must be between 1 and 256"),
                (fetch + ["--concurrency", "257"], "--concurrency must be between 1 and 256"),
                (fetch + ["--concurrency", "0"], "--concurrency must be between 1 and 256"),
                (["prefetch", url, "--concurrency", "9223372036854775807"], "--concurrency must be between 1 and 256"),
                (["prefetch", url, "--timeout", "inf"], "finite"),
                (fetch + ["--max-age", "36501d"], "over the limit of 36500 days"),
                (fetch + ["--max-age", "1e308d"], "over the limit of 36500 days"),
                (["cache", "stats", "--max-disk-size", "99999999999999999999"], "over the limit of 1125899906842624 bytes"),
                (["cache", "clean", "--max-disk-size", "2000000G"], "over the limit"),
            ]
            for (arguments, message) in cases {
                let run = try await CLI.run(arguments, in: directory)
                #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.png").path))
        }
    }

    @Test func theLimitsThemselvesAreAccepted() async throws {
        try await withTemporaryDirectory { directory in
            let run = try await CLI.run(
                ["fetch", try Self.dataURL(), "-o", "out", "--concurrency", "256", "--timeout", "86400",
                 "--max-age", "36500d", "--max-disk-size", "1048576G", "--cache-dir", "c"],
                in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/image.png").path))
        }
    }

    @Test func resizeNeverUpscalesUnlessAskedAndPadsOnRequest() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.png(width: 64, height: 48).write(to: directory.appendingPathComponent("in.png"))
            func size(_ arguments: [String]) async throws -> PixelSize? {
                let run = try await CLI.run(["convert", "in.png", "out.png"] + arguments, in: directory)
                #expect(run.status == 0, "\(arguments): \(run.stderr)")
                let data = try Data(contentsOf: directory.appendingPathComponent("out.png"))
                return try ImageCodersManager.standard().decode(data).pixelSize
            }
            #expect(try await size(["--resize", "400x400", "--mode", "fit"]) == PixelSize(width: 64, height: 48))
            #expect(try await size(["--resize", "400x400", "--mode", "fit", "--upscale"]) == PixelSize(width: 400, height: 300))
            #expect(try await size(["--resize", "400x400", "--mode", "fit", "--pad"]) == PixelSize(width: 400, height: 400))
            #expect(try await size(["--resize", "32x32", "--mode", "fit"]) == PixelSize(width: 32, height: 24))
            #expect(try await size(["--resize", "400x400", "--mode", "cover"]) == PixelSize(width: 48, height: 48))
        }
    }

    @Test func fileErrorsAreTypedAndNameThePath() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.png().write(to: directory.appendingPathComponent("in.png"))
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder.png"), withIntermediateDirectories: false)

            let missing = try await CLI.run(["convert", "missing.png", "out.png"], in: directory)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("fileUnreadable") && missing.stderr.contains("missing.png"), "\(missing.stderr)")
            #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")

            let folder = try await CLI.run(["convert", "folder.png", "out.png"], in: directory)
            #expect(folder.status == 1)
            #expect(folder.stderr.contains("fileUnreadable: folder.png is a directory"), "\(folder.stderr)")

            let infoMissing = try await CLI.run(["info", "missing.png"], in: directory)
            #expect(infoMissing.status == 1)
            #expect(infoMissing.stderr.contains("fileUnreadable"), "\(infoMissing.stderr)")
            #expect(!infoMissing.stderr.contains("invalidURL"), "\(infoMissing.stderr)")
            let infoFolder = try await CLI.run(["info", "folder.png"], in: directory)
            #expect(infoFolder.stderr.contains("folder.png is a directory"), "\(infoFolder.stderr)")

            let noDirectory = try await CLI.run(["convert", "in.png", "nowhere/out.png"], in: directory)
            #expect(noDirectory.status == 1)
            #expect(noDirectory.stderr.contains("fileUnwritable: cannot write nowhere/out.png"), "\(noDirectory.stderr)")
            let ontoDirectory = try await CLI.run(["convert", "in.png", "folder.png"], in: directory)
            #expect(ontoDirectory.stderr.contains("fileUnwritable: folder.png is a directory"), "\(ontoDirectory.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasSuffix(".tmp") })

            let list = try await CLI.run(["prefetch", "--file", "folder.png", "--cache-dir", "c"], in: directory)
            #expect(list.status == 1)
            #expect(list.stderr.contains("folder.png is a directory"), "\(list.stderr)")

            let url = try Self.dataURL()
            let outputIsAFile = try await CLI.run(["fetch", url, "-o", "in.png", "--no-cache"], in: directory)
            #expect(outputIsAFile.status == 1)
            #expect(outputIsAFile.stderr.contains("fileUnwritable: in.png is a file, not a directory"), "\(outputIsAFile.stderr)")
            // /proc takes no new files, even from root.
            let unwritable = try await CLI.run(["fetch", url, "-o", "/proc", "--no-cache"], in: directory)
            #expect(unwritable.status == 1)
            #expect(unwritable.stderr.contains("fileUnwritable: cannot write /proc/image.png"), "\(unwritable.stderr)")

            let fileURL = try await CLI.run(["fetch", directory.appendingPathComponent("folder.png").absoluteString, "-o", "o", "--no-cache"], in: directory)
            #expect(fileURL.status == 1)
            #expect(fileURL.stderr.contains("is a directory"), "\(fileURL.stderr)")
        }
    }
}
