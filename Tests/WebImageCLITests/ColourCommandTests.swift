import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// Issue 26: `--colour srgb|keep|ignore` on the real command, and `info` naming the profile.
@Suite("webimage --colour and info's colour line")
struct ColourCommandTests {
    /// A 48×32 JPEG carrying Display P3.
    static func p3JPEG() throws -> Data {
        let plain = try JPEGCoder().encode(Image(pixels: ImageFixtures.gradient(width: 48, height: 32)), as: .jpeg, options: .init())
        return TestColorProfiles.embedding(TestColorProfiles.displayP3, inJPEG: plain)
    }

    static func decode(_ data: Data, _ policy: ColorPolicy) throws -> Image {
        var options = ImageDecodingOptions()
        options.colorPolicy = policy
        return try ImageCodersManager.standard().decode(data, options: options)
    }

    @Test("convert converts to sRGB by default, keeps the profile with --colour keep, drops it with ignore")
    func convertPolicies() async throws {
        try await withTemporaryDirectory { directory in
            let source = try Self.p3JPEG()
            try source.write(to: directory.appendingPathComponent("p3.jpg"))
            for (arguments, output) in [([], "srgb.png"), (["--colour", "keep"], "keep.png"), (["--color", "ignore"], "ignore.png")] {
                let run = try await CLI.run(["convert", "p3.jpg", output] + arguments, in: directory)
                #expect(run.status == 0, "\(run.stderr)")
            }
            let written = { (name: String) in try Data(contentsOf: directory.appendingPathComponent(name)) }
            let converted = try Self.decode(try written("srgb.png"), .keep)
            #expect(converted.colorProfile == nil)
            #expect(converted.pixels.bytes == (try Self.decode(source, .sRGB)).pixels.bytes)
            let kept = try Self.decode(try written("keep.png"), .keep)
            #expect(kept.colorProfile == TestColorProfiles.displayP3)
            #expect(kept.pixels.bytes == (try Self.decode(source, .ignore)).pixels.bytes)
            let ignored = try Self.decode(try written("ignore.png"), .keep)
            #expect(ignored.colorProfile == nil)
            #expect(ignored.pixels.bytes == kept.pixels.bytes)
            #expect(converted.pixels.bytes != kept.pixels.bytes)

            let bad = try await CLI.run(["convert", "p3.jpg", "x.png", "--colour", "cmyk"], in: directory)
            #expect(bad.status == 64 || bad.status == 2, "\(bad.status)")
        }
    }

    @Test("convert --colour keep writes the profile into GIF and HEIC outputs too; info names it")
    func keepInGIFAndHEIC() async throws {
        try await withTemporaryDirectory { directory in
            try Self.p3JPEG().write(to: directory.appendingPathComponent("p3.jpg"))
            for output in ["keep.gif"] + (HEIFCoder.canEncodeHEIC ? ["keep.heic"] : []) {
                let run = try await CLI.run(["convert", "p3.jpg", output, "--colour", "keep"], in: directory)
                #expect(run.status == 0, "\(run.stderr)")
                let written = try Data(contentsOf: directory.appendingPathComponent(output))
                #expect(try Self.decode(written, .keep).colorProfile == TestColorProfiles.displayP3, "\(output)")
                let info = try await CLI.run(["info", output], in: directory)
                #expect(info.stdout.contains("RGB ICC profile"), "\(info.stdout)")
            }
        }
    }

    @Test("info names the embedded profile, in text and JSON; a file without one is sRGB")
    func infoShowsTheProfile() async throws {
        try await withTemporaryDirectory { directory in
            try Self.p3JPEG().write(to: directory.appendingPathComponent("p3.jpg"))
            let text = try await CLI.run(["info", "p3.jpg"], in: directory)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("colour:       "), "\(text.stdout)")
            #expect(text.stdout.contains("RGB ICC profile"), "\(text.stdout)")
            #expect(text.stdout.contains("converted to sRGB when decoded"), "\(text.stdout)")
            let json = try await CLI.run(["info", "p3.jpg", "--json"], in: directory)
            let profile = try #require(try json.jsonLines().first?["colorProfile"] as? [String: Any])
            #expect(profile["space"] as? String == "rgb")
            #expect(profile["isSRGB"] as? Bool == false)
            #expect(profile["bytes"] as? Int == TestColorProfiles.displayP3.data.count)

            try Fixture.png().write(to: directory.appendingPathComponent("plain.png"))
            let plain = try await CLI.run(["info", "plain.png"], in: directory)
            #expect(plain.stdout.contains("colour:       sRGB (no profile)"), "\(plain.stdout)")
        }
    }
}
