import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

@Suite("Transform flags of fetch and convert", .timeLimit(.minutes(3)))
struct TransformFlagsTests {
    let coders = ImageCodersManager.standard()

    /// A 40×30 PNG whose every pixel differs, written to `directory/in.png`.
    func writeSource(in directory: URL) throws -> PixelBuffer {
        var pixels = PixelBuffer(width: 40, height: 30, alphaMode: .straight)
        for y in 0..<30 { for x in 0..<40 { pixels[x, y] = RGBA8(r: UInt8(x * 6), g: UInt8(y * 8), b: UInt8((x + y) % 256)) } }
        try coders.encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
            .write(to: directory.appendingPathComponent("in.png"))
        return pixels
    }

    func convert(_ flags: [String], in directory: URL) async throws -> PixelBuffer {
        let run = try await CLI.run(["convert", "in.png", "out.png"] + flags, in: directory)
        #expect(run.status == 0, "\(flags): \(run.stderr)")
        let data = try Data(contentsOf: directory.appendingPathComponent("out.png"))
        return try coders.decode(data, options: ImageDecodingOptions(alphaMode: .straight)).pixels
    }

    @Test("convert applies the flags in the order given, as one pipeline equal to the library's")
    func order() async throws {
        try await withTemporaryDirectory { directory in
            let source = Image(pixels: try writeSource(in: directory))
            let rotateThenCrop = try await convert(["--rotate", "90", "--crop", "10x20+0+0"], in: directory)
            let cropThenRotate = try await convert(["--crop=10x20+0+0", "--rotate=90"], in: directory)
            #expect(rotateThenCrop.size == PixelSize(width: 10, height: 20))
            #expect(cropThenRotate.size == PixelSize(width: 20, height: 10))
            let expected = try ChainedTransformer([
                RotateTransformer(degrees: 90), CropTransformer(rect: PixelRect(x: 0, y: 0, width: 10, height: 20)),
            ]).transform(source)
            #expect(rotateThenCrop == expected.pixels)

            let styled = try await convert(
                ["--grayscale", "--resize", "20x15", "--filter", "mitchell", "--tint", "#ff8000:multiply", "--flip", "h",
                 "--round-corner", "4:1:white", "--blur", "1.5", "--sharpen", "--sepia"],
                in: directory)
            let library = try ChainedTransformer([
                ColorMatrixTransformer.grayscale(),
                ResizeTransformer(size: PixelSize(width: 20, height: 15), filter: .mitchell),
                TintTransformer(color: RGBA8(r: 255, g: 128, b: 0), blendMode: .multiply),
                FlipTransformer(horizontal: true),
                RoundCornerTransformer(radius: 4, borderWidth: 1, borderColor: .white),
                GaussianBlurTransformer(sigma: 1.5), SharpenTransformer(), ColorMatrixTransformer.sepia(),
            ]).transform(source)
            #expect(styled == library.pixels)

            let circle = try await convert(["--circle", "--rotate=-90"], in: directory)
            #expect(circle.size == PixelSize(width: 30, height: 30))
            #expect(circle[0, 0].a == 0 && circle[15, 15].a == 255)
            let north = try await convert(["--crop", "10x10", "--gravity", "north"], in: directory)
            #expect(north == (try source.pixels.cropped(to: PixelRect(x: 15, y: 0, width: 10, height: 10))))
            let attention = try await convert(["--gravity", "attention", "--crop", "10x10"], in: directory)
            #expect(attention.size == PixelSize(width: 10, height: 10))
        }
    }

    @Test("the URL's steps and spellings work as flags: colour filters, R:G:B colours, W:H:GRAVITY crops")
    func urlVocabulary() async throws {
        try await withTemporaryDirectory { directory in
            let source = Image(pixels: try writeSource(in: directory))
            let flags = try await convert(
                ["--brightness", "1.2", "--contrast=0.8", "--saturation", "0.5", "--invert", "--crop", "20:10:soea",
                 "--tint", "255:128:0:multiply", "--round-corner", "3:1", "--flip", "1:1"],
                in: directory)
            let library = try ChainedTransformer([
                ColorMatrixTransformer.brightness(1.2), ColorMatrixTransformer.contrast(0.8),
                ColorMatrixTransformer.saturation(0.5), ColorMatrixTransformer.invert(),
                GravityCropTransformer(size: PixelSize(width: 20, height: 10), anchor: .gravity(.southEast)),
                TintTransformer(color: RGBA8(r: 255, g: 128, b: 0), blendMode: .multiply),
                RoundCornerTransformer(radius: 3, borderWidth: 1), FlipTransformer(horizontal: true, vertical: true),
            ]).transform(source)
            #expect(flags == library.pixels)
            // The same edits written as URL segments make the same pixels.
            let segments = ["br:1.2", "co:0.8", "sa:0.5", "iv", "c:20:10:soea", "tn:ff8000:multiply", "rc:3:1", "fl:hv"]
            let edits = try segments.compactMap { try Edit(parsing: $0) }
            #expect(flags == (try ChainedTransformer(edits.map { $0.transformer() }).transform(source)).pixels)
        }
    }

    @Test("Invalid values and misplaced modifiers are usage errors (exit 2) with a message")
    func invalid() async throws {
        try await withTemporaryDirectory { directory in
            _ = try writeSource(in: directory)
            let cases: [([String], String)] = [
                (["--rotate", "abc"], "--rotate"), (["--rotate", "nan"], "--rotate"), (["--flip", "x"], "--flip"),
                (["--blur", "-1"], "--blur"), (["--blur", "3000"], "--blur"), (["--rotate", "4000"], "--rotate"),
                (["--brightness", "11"], "--brightness"), (["--saturation", "x"], "--saturation"), (["--round-corner", "5:2:nocolour"], "--round-corner"),
                (["--round-corner", "-3"], "--round-corner"), (["--tint", "nocolour"], "--tint"),
                (["--tint", "red:dodge"], "--tint"), (["--crop", "0x5"], "--crop"), (["--crop", "5x5+1"], "--crop"),
                (["--crop", "5x5", "--gravity", "up"], "--gravity"), (["--filter", "cubic", "--resize", "5x5"], "--filter"),
                (["--filter", "mitchell"], "--filter only applies with --resize"),
                (["--gravity", "north"], "--gravity only applies with --crop"),
                (["--crop", "5x5+1+1", "--gravity", "north"], "--gravity only applies with --crop"),
            ]
            for (flags, message) in cases {
                let run = try await CLI.run(["convert", "in.png", "out.png"] + flags, in: directory)
                #expect(run.status == 2, "\(flags): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains(message), "\(flags): \(run.stderr)")
            }
            // A crop outside the image is a failure of that item, not a usage error.
            let outside = try await CLI.run(["convert", "in.png", "out.png", "--crop", "5x5+100+100"], in: directory)
            #expect(outside.status == 1 && outside.stderr.contains("badImageData"), "\(outside.stderr)")
        }
    }

    @Test("fetch applies the flags in order; the same order hits the cache, another order does not share it")
    func fetchOrderAndCacheKey() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        server.route("/p.png", response: .ok(try Fixture.png(width: 40, height: 30), contentType: "image/png"))
        try await withTemporaryDirectory { directory in
            let url = server.url("/p.png").absoluteString
            func fetch(_ flags: [String], into folder: String) async throws -> [String: Any] {
                let run = try await CLI.run(
                    ["fetch", url, "-o", folder, "--cache-dir", "c", "--format", "png", "--json"] + flags, in: directory)
                #expect(run.status == 0, "\(run.stderr)")
                return try #require(try run.jsonLines().first { $0["event"] as? String == "finished" })
            }
            let first = try await fetch(["--rotate", "90", "--crop", "10x20+0+0"], into: "a")
            #expect(first["width"] as? Int == 10 && first["height"] as? Int == 20)
            let again = try await fetch(["--rotate", "90", "--crop", "10x20+0+0"], into: "b")
            #expect(again["source"] as? String == "disk")
            #expect(again["width"] as? Int == 10 && again["height"] as? Int == 20)
            let reversed = try await fetch(["--crop", "10x20+0+0", "--rotate", "90"], into: "d")
            #expect(reversed["width"] as? Int == 20 && reversed["height"] as? Int == 10)
        }
    }
}
