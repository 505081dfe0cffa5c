import Foundation
import Testing
import WebImageCodecs
import WebImageServer
import WebImageTesting

/// Issue 26: the service converts a source's colour profile to sRGB by default; `scp:0` (and
/// `serve --colour keep`) keep it in outputs that carry one, with their own cache entries.
@Suite("serve: colour profiles (scp, --colour)")
struct ColourPolicyServiceTests {
    static let p3: Data = TestColorProfiles.embedding(TestColorProfiles.displayP3, inJPEG: Fixtures.jpeg)

    static func decode(_ data: Data, _ policy: ColorPolicy) throws -> Image {
        var options = ImageDecodingOptions()
        options.colorPolicy = policy
        return try Fixtures.coders.decode(data, options: options)
    }

    @Test("default: sRGB pixels, no profile; scp:0 keeps the profile in PNG, JPEG and WebP; scp:0 and scp:1 differ in ETag")
    func urlOption() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/p3.jpg", response: .ok(Self.p3, contentType: "image/jpeg"))
            let converted = try await harness.image("w:80", "/p3.jpg", ext: "png")
            #expect(converted.status == 200, "\(converted.text)")
            let convertedImage = try Self.decode(converted.body, .keep)
            #expect(convertedImage.colorProfile == nil)

            let kept = try await harness.image("w:80/scp:0", "/p3.jpg", ext: "png")
            #expect(kept.status == 200, "\(kept.text)")
            let keptImage = try Self.decode(kept.body, .keep)
            #expect(keptImage.colorProfile == TestColorProfiles.displayP3)
            #expect(keptImage.pixels.bytes != convertedImage.pixels.bytes)
            #expect(kept.header("ETag") != converted.header("ETag"))
            // Decoded with its profile, the kept result looks like the converted one: on average
            // within a level (resampling before or after the conversion, whose gamut clipping is
            // not linear, differs by a few levels at most on saturated edges).
            let keptAsSRGB = try Self.decode(kept.body, .sRGB).pixels.bytes
            let differences = zip(keptAsSRGB, convertedImage.pixels.bytes).map { abs(Int($0) - Int($1)) }
            let mean = Double(differences.reduce(0, +)) / Double(max(1, differences.count))
            #expect(mean <= 1, "mean \(mean), max \(differences.max() ?? 0)")

            let jpeg = try await harness.image("w:80/scp:0", "/p3.jpg", ext: "jpg")
            #expect(try Fixtures.header(jpeg.body).colorProfile == TestColorProfiles.displayP3)
            let webp = try await harness.image("w:80/scp:0", "/p3.jpg", ext: "webp")
            #expect(try Fixtures.header(webp.body).colorProfile == TestColorProfiles.displayP3)
            // GIF carries it too (its ICCRGBG1 application extension).
            let gif = try await harness.image("w:80/scp:0", "/p3.jpg", ext: "gif")
            #expect(gif.status == 200)
            #expect(try Self.decode(gif.body, .keep).colorProfile == TestColorProfiles.displayP3)
        }
    }

    @Test("serve --colour keep makes keep the default; scp:1 still converts")
    func serviceDefault() async throws {
        try await ServiceHarness.with(configure: { $0.colorPolicy = .keep }) { (harness) async throws in
            harness.origin.route("/p3.jpg", response: .ok(Self.p3, contentType: "image/jpeg"))
            let kept = try await harness.image("w:80", "/p3.jpg", ext: "png")
            #expect(try Self.decode(kept.body, .keep).colorProfile == TestColorProfiles.displayP3)
            let converted = try await harness.image("w:80/scp:1", "/p3.jpg", ext: "png")
            #expect(try Self.decode(converted.body, .keep).colorProfile == nil)
        }
    }

    @Test("the canonical key names a policy other than sRGB")
    func canonicalKey() throws {
        #expect(!(try ProcessingOptions(segments: ["w:10"])).canonicalKey.contains("cp:"))
        #expect(try ProcessingOptions(segments: ["w:10", "scp:1"]).canonicalKey == ProcessingOptions(segments: ["w:10"]).canonicalKey)
        #expect(try ProcessingOptions(segments: ["w:10", "scp:0"]).canonicalKey.hasSuffix("/cp:keep"))
        #expect(try ProcessingOptions(segments: ["w:10"], colorPolicy: .ignore).canonicalKey.hasSuffix("/cp:ignore"))
    }
}
