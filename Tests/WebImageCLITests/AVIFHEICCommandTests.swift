import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// `webimage convert` to and from AVIF and HEIC, and `info` on them (fixtures made by our encoders).
@Suite("convert and info: AVIF and HEIC", .timeLimit(.minutes(3)))
struct AVIFHEICCommandTests {
    @Test("convert a.png b.avif c.png, and info b.avif from its header")
    func avifRoundTrip() async throws {
        let coders = ImageCodersManager.standard()
        try await withTemporaryDirectory { directory in
            try Fixture.png(width: 64, height: 48).write(to: directory.appendingPathComponent("a.png"))
            let encode = try await CLI.run(["convert", "a.png", "b.avif", "--quality", "90"], in: directory)
            #expect(encode.status == 0, "\(encode.stderr)")
            let avif = try Data(contentsOf: directory.appendingPathComponent("b.avif"))
            #expect(ImageFormat.detect(in: avif) == .avif)
            let info = try await CLI.run(["info", "b.avif", "--json"], in: directory)
            #expect(info.status == 0, "\(info.stderr)")
            let object = try #require(try info.jsonLines().first)
            #expect(object["format"] as? String == "avif")
            #expect(object["width"] as? Int == 64 && object["height"] as? Int == 48)
            let decode = try await CLI.run(["convert", "b.avif", "c.png"], in: directory)
            #expect(decode.status == 0, "\(decode.stderr)")
            let png = try coders.decode(Data(contentsOf: directory.appendingPathComponent("c.png")))
            let original = try coders.decode(Data(contentsOf: directory.appendingPathComponent("a.png")))
            #expect(ImageFixtures.meanAbsoluteDifference(png.pixels, original.pixels) < 4)
        }
    }

    @Test("convert anim.gif anim.avif keeps every frame and duration")
    func animatedGIFToAVIF() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.gif(frames: 4).write(to: directory.appendingPathComponent("anim.gif"))
            let run = try await CLI.run(["convert", "anim.gif", "anim.avif"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("4 frame(s)"), "\(run.stdout)")
            let info = try await CLI.run(["info", "anim.avif", "--json"], in: directory)
            let object = try #require(try info.jsonLines().first)
            #expect(object["frameCount"] as? Int == 4)
            #expect((object["durations"] as? [Double])?.allSatisfy { abs($0 - 0.1) < 0.001 } == true)
        }
    }

    @Test("convert a.png b.heic where libheif has an HEVC encoder, else a clear unsupportedFormat error")
    func heic() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.png(width: 40, height: 30).write(to: directory.appendingPathComponent("a.png"))
            let run = try await CLI.run(["convert", "a.png", "b.heic"], in: directory)
            guard HEIFCoder.canEncodeHEIC else {
                #expect(run.status == 1)
                #expect(run.stderr.contains("unsupportedFormat"), "\(run.stderr)")
                return
            }
            #expect(run.status == 0, "\(run.stderr)")
            let info = try await CLI.run(["info", "b.heic"], in: directory)
            #expect(info.status == 0, "\(info.stderr)")
            #expect(info.stdout.contains("format:       heic"), "\(info.stdout)")
            #expect(info.stdout.contains("dimensions:   40×30"), "\(info.stdout)")
        }
    }
}
