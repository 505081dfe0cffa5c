import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `webimage convert IN... -o DIR`: many files in one process, N workers, per-file reports, a
/// failure that does not stop the others, and the single-file form unchanged.
@Suite("webimage convert as a batch tool", .timeLimit(.minutes(5)))
struct ConvertBatchTests {
    /// Writes `count` distinct images (JPEG and PNG alternately) into `directory`; returns their names.
    static func writeInputs(_ count: Int, in directory: URL) throws -> [String] {
        let coders = ImageCodersManager.standard()
        return try (0..<count).map { index in
            let pixels = ImageFixtures.movingSquare(index: index, width: 120 + index, height: 80, square: 20)
            let format: ImageFormat = index.isMultiple(of: 2) ? .jpeg : .png
            let name = "in\(index).\(format == .jpeg ? "jpg" : "png")"
            try coders.encode(Image(pixels: pixels), as: format, options: ImageEncodingOptions())
                .write(to: directory.appendingPathComponent(name))
            return name
        }
    }

    @Test("Every input becomes a file in the output directory, in the asked format and size")
    func convertsEveryInput() async throws {
        try await withTemporaryDirectory { directory in
            let inputs = try Self.writeInputs(6, in: directory)
            let run = try await CLI.run(
                ["convert"] + inputs + ["-o", "out", "--format", "webp", "--jobs", "3", "--resize", "60x40", "--mode", "fit"],
                in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            for (index, input) in inputs.enumerated() {
                let name = (input as NSString).deletingPathExtension + ".webp"
                let data = try Data(contentsOf: directory.appendingPathComponent("out/\(name)"))
                let header = try ImageCodersManager.standard().readHeader(data)
                #expect(header.format == .webp, "\(name)")
                // Fit (120+i)×80 into 60×40: the width binds.
                let height = Double(80 * 60) / Double(120 + index)
                #expect(header.pixelSize.width == 60, "\(name)")
                #expect(abs(Double(header.pixelSize.height) - height) <= 1, "\(name): \(header.pixelSize)")
            }
            #expect(run.lines.count == 7, "\(run.stdout)")  // one per file and the summary
            #expect(run.lines.last?.hasPrefix("6 of 6 succeeded") == true, "\(run.stdout)")
        }
    }

    @Test("A failing file is reported, the others are converted, and the exit status is 1")
    func failuresDoNotStopTheOthers() async throws {
        try await withTemporaryDirectory { directory in
            var inputs = try Self.writeInputs(3, in: directory)
            try Data("not an image".utf8).write(to: directory.appendingPathComponent("bad.png"))
            inputs.insert("bad.png", at: 1)
            inputs.append("missing.jpg")
            let run = try await CLI.run(["convert"] + inputs + ["-o", "out", "--json", "--jobs", "2"], in: directory)
            #expect(run.status == 1)
            let objects = try run.jsonLines()
            let finished = objects.filter { $0["event"] as? String == "finished" }
            let failed = objects.filter { $0["event"] as? String == "failed" }
            #expect(finished.count == 3 && failed.count == 2, "\(run.stdout)")
            let codes = Dictionary(
                uniqueKeysWithValues: failed.map { ($0["input"] as? String ?? "", ($0["error"] as? [String: Any])?["code"] as? String) })
            #expect(codes["bad.png"] == "badImageData" || codes["bad.png"] == "unsupportedFormat", "\(codes)")
            #expect(codes["missing.jpg"] == "fileUnreadable", "\(codes)")
            for object in finished {
                let file = try #require(object["file"] as? String)
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file)")
                #expect(object["width"] as? Int != nil && object["bytes"] as? Int != nil)
            }
            // Without --format each file keeps its own format.
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/in0.jpg").path))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/in1.png").path))
            let summary = try #require(objects.last)
            #expect(summary["event"] as? String == "summary")
            #expect(summary["succeeded"] as? Int == 3 && summary["failed"] as? Int == 2 && summary["total"] as? Int == 5)
            #expect(run.stderr.contains("webimage: error: bad.png:"), "\(run.stderr)")
            #expect(run.stderr.contains("missing.jpg"), "\(run.stderr)")
        }
    }

    @Test("Two inputs with the same name get unique outputs")
    func sameNamesAreMadeUnique() async throws {
        try await withTemporaryDirectory { directory in
            for folder in ["a", "b"] {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
                try ImageCodersManager.standard().encode(
                    Image(pixels: ImageFixtures.gradient(width: 40, height: 30)), as: .png, options: ImageEncodingOptions()
                ).write(to: directory.appendingPathComponent("\(folder)/x.png"))
            }
            let run = try await CLI.run(["convert", "a/x.png", "b/x.png", "-o", "out", "--format", "gif"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
            #expect(Set(written) == ["x.gif", "x-1.gif"])
        }
    }

    @Test("The single-file form still works, and its options are checked")
    func singleFileForm() async throws {
        try await withTemporaryDirectory { directory in
            let inputs = try Self.writeInputs(1, in: directory)
            let run = try await CLI.run(["convert", inputs[0], "one.png", "--json"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let object = try #require(try run.jsonLines().first)
            #expect(object["event"] as? String == "finished" && object["file"] as? String == "one.png")
            let header = try ImageCodersManager.standard().readHeader(Data(contentsOf: directory.appendingPathComponent("one.png")))
            #expect(header.format == .png && header.pixelSize == PixelSize(width: 120, height: 80))

            for arguments in [
                ["convert", inputs[0], "a.png", "b.png"],  // three files without -o
                ["convert", inputs[0], "a.png", "--format", "webp"],  // --format without -o
                ["convert", inputs[0], "a.png", "--jobs", "2"],  // --jobs without -o
                ["convert", inputs[0], "-o", "out", "--jobs", "0"],
            ] {
                let refused = try await CLI.run(arguments, in: directory)
                #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            }
        }
    }
}
