import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

/// `serve --watermark` checked at start; `fetch`/`convert --watermark … --watermark-options …`
/// and `--max-bytes` making the service's bytes for `wm:` and `mb:`.
@Suite("webimage watermarks and byte budgets", .serialized)
struct WatermarkMaxBytesCommandTests {
    typealias Served = ServeCommandTests.Served

    @Test("convert and fetch with --watermark and --max-bytes make the service's bytes for wm: and mb:")
    func sameBytesAsTheService() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            let jpeg = try Fixture.jpeg(width: 640, height: 400)
            origin.route("/photo.jpg", response: .ok(jpeg, contentType: "image/jpeg"))
            try jpeg.write(to: directory.appendingPathComponent("photo.jpg"))
            try Fixture.png(width: 40, height: 20, seed: 7).write(to: directory.appendingPathComponent("logo.png"))
            let source = PresetCommandTests.source(origin, "/photo.jpg")
            let served = try await Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log", "--watermark", directory.appendingPathComponent("logo.png").path], in: directory)
            let marked = try await served.get("/unsafe/rs:fit:160:100/wm:0.6:soea:4:4:0.25/plain/\(source)@webp")
            let tiled = try await served.get("/unsafe/wm:1:re:6:6/plain/\(source)@png")
            let plain = try await served.get("/unsafe/plain/\(source)@jpg")
            let bytes = plain.body.count * 6 / 10
            let budget = try await served.get("/unsafe/mb:\(bytes)/plain/\(source)@jpg")
            #expect(try await served.terminate() == 0)
            #expect(marked.status == 200 && tiled.status == 200 && budget.status == 200)
            #expect(budget.body.count <= bytes)

            // Through the service's renderer (--preset) ...
            let convert = try await CLI.run(
                ["convert", "photo.jpg", "marked.webp", "--preset", "small=rs:fit:160:100", "--preset", "small",
                 "--watermark", "logo.png", "--watermark-options", "0.6:soea:4:4:0.25"], in: directory)
            #expect(convert.status == 0, "\(convert.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("marked.webp")) == marked.body)
            // ... and through convert's own pipeline: the same core steps, the same bytes.
            let pipeline = try await CLI.run(
                ["convert", "photo.jpg", "tiled.png", "--watermark", "logo.png", "--watermark-options", "1:re:6:6"], in: directory)
            #expect(pipeline.status == 0, "\(pipeline.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("tiled.png")) == tiled.body)
            let fitted = try await CLI.run(["convert", "photo.jpg", "fitted.jpg", "--quality", "80", "--max-bytes", "\(bytes)"], in: directory)
            #expect(fitted.status == 0, "\(fitted.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("fitted.jpg")) == budget.body)

            let fetch = try await CLI.run(
                ["fetch", origin.url("/photo.jpg").absoluteString, "--format", "png", "--watermark", "logo.png",
                 "--watermark-options", "1:re:6:6", "-o", "fetched", "--cache-dir", "cache"], in: directory)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            let fetched = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("fetched").path)
            #expect(fetched.count == 1)
            if let name = fetched.first {
                #expect(try Data(contentsOf: directory.appendingPathComponent("fetched/\(name)")) == tiled.body)
            }
            let fetchBudget = try await CLI.run(
                ["fetch", origin.url("/photo.jpg").absoluteString, "--quality", "80", "--max-bytes", "\(bytes)", "-o", "budget", "--cache-dir", "cache2"],
                in: directory)
            #expect(fetchBudget.status == 0, "\(fetchBudget.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("budget/photo.jpg")).count <= bytes)
        }
    }

    @Test("a --watermark that is not an image stops serve with exit 2; bad CLI watermark flags are usage errors")
    func badWatermarkExit2() async throws {
        try await withTemporaryDirectory { directory in
            try Data("not an image".utf8).write(to: directory.appendingPathComponent("logo.png"))
            try Fixture.jpeg().write(to: directory.appendingPathComponent("photo.jpg"))
            for (arguments, message) in [
                (["serve", "--allow-unsigned", "--port", "0", "--watermark", "logo.png"], "is not a readable image"),
                (["serve", "--allow-unsigned", "--port", "0", "--watermark", "missing.png"], "cannot be read"),
                (["serve", "--allow-unsigned", "--port", "0", "--watermark-dir", "nowhere"], "is not a directory"),
                (["convert", "photo.jpg", "x.png", "--watermark", "logo.png"], "not a readable image"),
                (["convert", "photo.jpg", "x.png", "--watermark-options", "0.5"], "only applies with --watermark"),
                (["convert", "photo.jpg", "x.png", "--watermark", "photo.jpg", "--watermark-options", "2"], "outside"),
                (["convert", "photo.jpg", "x.png", "--max-bytes", "0"], "--max-bytes must be at least 1"),
            ] {
                let run = try await CLI.run(arguments, in: directory)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }
    }
}
