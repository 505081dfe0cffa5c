import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// Issue 25: two small files killed the process — an SVG that makes librsvg panic (SIGABRT) and a
/// HEIF whose item references form a cycle (SIGSEGV, stack overflow in libheif). Both must be a
/// typed error in the CLI and a clean error status in `webimage serve`, which goes on serving.
@Suite("Crashing inputs", .serialized, .timeLimit(.minutes(5)))
struct CrashingInputTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    /// The inputs, as (file name in the test directory, regression file, the error code).
    static let inputs: [(name: String, file: String, code: String)] = [
        ("panic.svg", "svg/abort-font-size-3e19.svg", "tooLarge"),
        ("panic-css.svg", "svg/abort-css-font-size-3e19-past-the-scanner.svg", "badImageData"),
        ("cycle.heic", "heif/stack-overflow-grid-alpha-grid-cycle.heic", "badImageData"),
    ]

    static func copyInputs(to directory: URL) throws {
        for input in inputs {
            try Data(contentsOf: regressions.appendingPathComponent(input.file)).write(to: directory.appendingPathComponent(input.name))
        }
        let png = try ImageCodersManager.standard()
            .encode(Image(pixels: ImageFixtures.translucentGradient(width: 32, height: 16)), as: .png, options: .init())
        try png.write(to: directory.appendingPathComponent("fine.png"))
    }

    @Test func theCLIGivesATypedErrorForEach() async throws {
        try await withTemporaryDirectory { directory in
            try Self.copyInputs(to: directory)
            for input in Self.inputs {
                let run = try await CLI.run(["convert", input.name, "out.png"], in: directory)
                #expect(run.status == 1, "\(input.name): exit \(run.status) \(run.stderr.suffix(1500))")
                #expect(run.stderr.contains("\(input.name): \(input.code)"), "\(input.name): \(run.stderr)")
                // `info` reads the header only: the CSS document parses (it panics when drawn).
                let info = try await CLI.run(["info", input.name, "--json"], in: directory)
                #expect(info.status == 0 || (info.status == 1 && info.stdout.contains(input.code)), "\(input.name): \(info.status) \(info.stdout)")
            }
            let batch = try await CLI.run(["convert", "panic-css.svg", "cycle.heic", "fine.png", "-o", "out", "--format", "png"], in: directory)
            #expect(batch.status == 1, "\(batch.stderr)")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/fine.png").path), "\(batch.stdout)")
        }
    }

    @Test func serveAnswersEachWithAnErrorStatusAndKeepsServing() async throws {
        try await withTemporaryDirectory { directory in
            try Self.copyInputs(to: directory)
            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--local-root", directory.path, "--no-access-log"], in: directory)
            // /health is asked all along, and must never fail.
            let health = Task {
                var failures: [String] = []
                var asked = 0
                while !Task.isCancelled {
                    do {
                        let status = try await served.get("/health").status
                        if status != 200 { failures.append("status \(status)") }
                    } catch {
                        // Cancelling this poller cancels its request in flight: that is no failure.
                        if Task.isCancelled { break }
                        failures.append("\(error)")
                    }
                    asked += 1
                    try? await Task.sleep(for: .milliseconds(20))
                }
                return (asked, failures)
            }
            for input in Self.inputs {
                for size in [64, 128] {
                    let answer = try await served.get("/unsafe/rs:fit:\(size):\(size)/plain/local:///\(input.name)@png")
                    #expect((400..<500).contains(answer.status), "\(input.name): \(answer.status)")
                    #expect(String(decoding: answer.body, as: UTF8.self).contains(input.code), "\(input.name): \(String(decoding: answer.body, as: UTF8.self))")
                    let next = try await served.get("/unsafe/rs:fit:\(size):\(size)/plain/local:///fine.png@png")
                    #expect(next.status == 200, "after \(input.name): \(next.status)")
                }
            }
            health.cancel()
            let (asked, failures) = await health.value
            #expect(asked > 0)
            #expect(failures.isEmpty, "\(failures)")
            #expect(served.process.isRunning)
            #expect(try await served.terminate() == 0)
        }
    }
}
