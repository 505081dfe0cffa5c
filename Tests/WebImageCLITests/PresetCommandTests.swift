import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

#if canImport(Glibc)
import Glibc
#endif

/// Presets from the command line: `serve --preset/--presets-file/--only-presets`, checked at
/// start, reloaded on SIGHUP; `fetch`/`convert --preset` making the service's bytes.
@Suite("webimage presets", .serialized)
struct PresetCommandTests {
    typealias Served = ServeCommandTests.Served

    static func source(_ origin: LoopbackHTTPServer, _ path: String) -> String {
        origin.url(path).absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("a bad preset or presets file stops serve with exit 2 naming the preset")
    func badPresetsExit2() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("presets.conf")
            try "good=w:10\n# fine\nthumb=rs:fit:10:10/zz:1\n".write(to: file, atomically: true, encoding: .utf8)
            for (arguments, message) in [
                (["--presets-file", file.path], "preset 'thumb': unknown option 'zz'"),
                (["--preset", "small=w:99999"], "preset 'small'"),
                (["--preset", "loop=pr:loop"], "preset 'loop'"),
                (["--preset", "nothing"], "is not name=options"),
                (["--presets-file", directory.appendingPathComponent("missing").path], "cannot be read"),
            ] {
                let run = try await CLI.run(["serve", "--allow-unsigned", "--port", "0"] + arguments, in: directory)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }
    }

    @Test("SIGHUP reloads the presets file; a bad file is logged and the old set stays; --only-presets refuses other options")
    func sighupReload() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            origin.route("/a.jpg", response: .ok(try Fixture.jpeg(), contentType: "image/jpeg"))
            let file = directory.appendingPathComponent("presets.conf")
            try "thumb=rs:fit:40:40\n".write(to: file, atomically: true, encoding: .utf8)
            let served = try await Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--presets-file", file.path, "--only-presets"],
                in: directory)
            let path = "/unsafe/pr:thumb/plain/\(Self.source(origin, "/a.jpg"))@png"
            let coders = ImageCodersManager.standard()
            #expect(try coders.readHeader(try await served.get(path).body).pixelSize == PixelSize(width: 40, height: 25))
            #expect(try await served.get("/unsafe/w:10/plain/\(Self.source(origin, "/a.jpg"))@png").status == 400)

            try "thumb=rs:fit:80:80\n".write(to: file, atomically: true, encoding: .utf8)
            kill(served.process.processIdentifier, SIGHUP)
            var size = PixelSize(width: 0, height: 0)
            let deadline = ContinuousClock.now + .seconds(30)
            while size.width != 80, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                size = try coders.readHeader(try await served.get(path).body).pixelSize
            }
            #expect(size == PixelSize(width: 80, height: 50))

            try "thumb=rs:fit:20:20/zz:1\n".write(to: file, atomically: true, encoding: .utf8)
            kill(served.process.processIdentifier, SIGHUP)
            var logged = false
            while !logged, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                logged = ((try? String(contentsOf: served.errors, encoding: .utf8)) ?? "").contains("presets not reloaded")
            }
            #expect(logged)
            #expect(served.process.isRunning)
            #expect(try coders.readHeader(try await served.get(path).body).pixelSize == PixelSize(width: 80, height: 50))
            #expect(try await served.terminate() == 0)
            let log = try String(contentsOf: served.errors, encoding: .utf8)
            #expect(log.contains("preset 'thumb': unknown option 'zz'"), "\(log)")
        }
    }

    @Test("fetch --preset and convert --preset make the service's bytes for pr:NAME")
    func sameBytesAsTheService() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            let jpeg = try Fixture.jpeg(width: 640, height: 400)
            origin.route("/photo.jpg", response: .ok(jpeg, contentType: "image/jpeg"))
            try jpeg.write(to: directory.appendingPathComponent("photo.jpg"))
            let file = directory.appendingPathComponent("presets.conf")
            try "thumb=rs:fill:96:96/g:sm/bl:1\ndefault=q:61\n".write(to: file, atomically: true, encoding: .utf8)
            let presetFlags = ["--presets-file", file.path, "--preset", "grey=gs:1"]
            let served = try await Served.start(
                ["--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log"] + presetFlags, in: directory)
            let service = try await served.get("/unsafe/pr:thumb:grey/plain/\(Self.source(origin, "/photo.jpg"))@webp")
            let serviceJPEG = try await served.get("/unsafe/pr:thumb/plain/\(Self.source(origin, "/photo.jpg"))")
            let serviceDPR = try await served.get("/unsafe/pr:thumb/dpr:0.5/plain/\(Self.source(origin, "/photo.jpg"))@webp")
            #expect(try await served.terminate() == 0)
            #expect(service.status == 200)
            #expect(serviceJPEG.status == 200)

            let convert = try await CLI.run(
                ["convert", "photo.jpg", "out.webp", "--preset", "thumb", "--preset", "grey"] + presetFlags, in: directory)
            #expect(convert.status == 0, "\(convert.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("out.webp")) == service.body)

            // --dpr is a dpr: after the presets.
            let halved = try await CLI.run(["convert", "photo.jpg", "half.webp", "--preset", "thumb", "--dpr", "0.5"] + presetFlags, in: directory)
            #expect(halved.status == 0, "\(halved.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("half.webp")) == serviceDPR.body)
            #expect(try ImageCodersManager.standard().readHeader(serviceDPR.body).pixelSize == PixelSize(width: 48, height: 48))

            let fetch = try await CLI.run(
                ["fetch", origin.url("/photo.jpg").absoluteString, "--preset", "thumb", "-o", "fetched", "--cache-dir", "cache"] + presetFlags,
                in: directory)
            #expect(fetch.status == 0, "\(fetch.stderr)")
            #expect(try Data(contentsOf: directory.appendingPathComponent("fetched/photo.jpg")) == serviceJPEG.body)

            for (arguments, message) in [
                (["convert", "photo.jpg", "x.png", "--preset", "nope"] + presetFlags, "unknown preset 'nope'"),
                (["convert", "photo.jpg", "x.png", "--preset", "thumb", "--resize", "10x10"] + presetFlags, "cannot be combined"),
                (["convert", "photo.jpg", "x.png", "--preset", "a=w:1"], "name the one to apply"),
            ] {
                let run = try await CLI.run(arguments, in: directory)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            }
        }
    }
}
