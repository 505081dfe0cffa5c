import Foundation
import Testing
import WebImage
import WebImageCodecs
import WebImageTesting

/// CMYK and YCCK JPEGs through lcms2: the embedded CMYK profile, else the standard one
/// (Ghostscript's `default_cmyk.icc`, installed by the set-up script), measured against lcms2's
/// double-precision conversion of the same ink samples.
@Suite("CMYK colour management")
struct CMYKColorTests {
    /// 32×16, eight 8×8 patches of ink (white, C, M, Y, K, a blue, an orange, a four-ink grey),
    /// written by Pillow as Photoshop does: Adobe APP14, inverted samples, no profile.
    static let adobeCMYK = Data(base64Encoded: "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkKCgoKCgYICwwLCgwJCgoK/8AAFAgAEAAgBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwD9/K/fyv38r9/K/gDooor+/wAr+AOiiiv7/K/gDooor+/yv4A6/jfr5for+6yv7IK/B+v4j69Qr4Pr9kK/qAr4Pr//2Q==")!

    static func inks(of data: Data) throws -> (samples: [UInt8], inverted: Bool) {
        let recorder = CMYKSampleRecorder()
        _ = try JPEGCoder(colorConverter: recorder).decode(data, options: ImageDecodingOptions())
        return try #require(recorder.recorded)
    }

    static func decode(_ data: Data, policy: ColorPolicy = .sRGB, coder: JPEGCoder = JPEGCoder(colorConverter: LCMSColorConverter.shared))
        throws -> Image
    {
        var options = ImageDecodingOptions()
        options.colorPolicy = policy
        return try ImageCodersManager(coders: [coder], colorConverter: LCMSColorConverter.shared).decode(data, options: options)
    }

    static var standard: ColorProfile {
        get throws {
            try #require(
                LCMSColorConverter.shared.standardCMYKProfile,
                "no standard CMYK profile: run scripts/install-system-packages.sh (libgs-common)")
        }
    }

    @Test("an untagged Adobe CMYK JPEG goes through the standard CMYK profile, within ΔE 1 of lcms2's own conversion")
    func untaggedUsesTheStandardProfile() throws {
        let (inks, inverted) = try Self.inks(of: Self.adobeCMYK)
        #expect(inverted)
        let reference = try #require(ColorReference.sRGB(cmyk: inks, inverted: true, profile: try Self.standard))
        let managed = try Self.decode(Self.adobeCMYK)
        #expect(managed.colorProfile == nil)
        let difference = ColorReference.difference(managed.pixels.bytes, reference: reference)
        #expect(difference.mean <= 1 && difference.p99 <= 3, "\(difference)")
        // The naive formula (kept for .ignore) is visibly off: pure cyan is far brighter than any press prints.
        let formula = ColorReference.difference(try Self.decode(Self.adobeCMYK, policy: .ignore).pixels.bytes, reference: reference)
        #expect(formula.mean > 5, "\(formula)")
    }

    @Test("an embedded CMYK profile wins over the standard one, and the header names it")
    func embeddedProfile() throws {
        let data = try #require(FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/ps_cmyk.icc"))
        let profile = try #require(ColorProfile(iccData: data))
        let tagged = TestColorProfiles.embedding(profile, inJPEG: Self.adobeCMYK)
        let (inks, _) = try Self.inks(of: tagged)
        let managed = try Self.decode(tagged)
        let own = ColorReference.difference(managed.pixels.bytes, reference: try #require(ColorReference.sRGB(cmyk: inks, inverted: true, profile: profile)))
        #expect(own.mean <= 1 && own.p99 <= 3, "\(own)")
        let viaStandard = ColorReference.difference(
            managed.pixels.bytes, reference: try #require(ColorReference.sRGB(cmyk: inks, inverted: true, profile: try Self.standard)))
        #expect(viaStandard.mean > 1, "the embedded profile was not used: \(viaStandard)")
        #expect(try JPEGCoder().readHeader(tagged).colorProfile == profile)
    }

    @Test("keep converts CMYK too (no output format carries a CMYK profile on RGB pixels); ignore and no converter use the formula")
    func policies() throws {
        let managed = try Self.decode(Self.adobeCMYK)
        let kept = try Self.decode(Self.adobeCMYK, policy: .keep)
        #expect(kept.pixels == managed.pixels && kept.colorProfile == nil)
        let ignored = try Self.decode(Self.adobeCMYK, policy: .ignore)
        #expect(ignored.pixels != managed.pixels)
        #expect(try Self.decode(Self.adobeCMYK, coder: JPEGCoder()).pixels == ignored.pixels)
        let noStandard = JPEGCoder(colorConverter: LCMSColorConverter(standardCMYKProfile: nil))
        #expect(try Self.decode(Self.adobeCMYK, coder: noStandard).pixels == ignored.pixels)
    }

    @Test("the incremental decoder converts as the one-shot decoder does")
    func incremental() throws {
        let coder = JPEGCoder(colorConverter: LCMSColorConverter.shared)
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodingOptions())
        try decoder.append(Self.adobeCMYK)
        let final = try #require(try decoder.currentImage())
        #expect(final.pixels == (try coder.decode(Self.adobeCMYK, options: ImageDecodingOptions())).pixels)
    }
}

/// CMYK TIFFs (8-bit, contiguous, stripped): the same inks as CMYKColorTests/adobeCMYK.
@Suite("CMYK TIFF colour management")
struct CMYKTIFFColorTests {
    /// 32×16, the same eight patches, written by Pillow (deflate, not inverted, no profile).
    static let cmyk = Data(base64Encoded: "SUkqAD4AAAB4nGNgwA/+E8BUUDBq/6j9o/YPnP14FZzQYBDBhxkW3GHAh20IgFH7R+0ftX/g7AcAeknbEAAKAAABAwABAAAAIAAAAAEBAwABAAAAEAAAAAIBAwAEAAAAvAAAAAMBAwABAAAACAAAAAYBAwABAAAABQAAABEBBAABAAAACAAAABUBAwABAAAABAAAABYBAwABAAAAEAAAABcBBAABAAAANQAAABwBAwABAAAAAQAAAAAAAAAIAAgACAAIAA==")!

    /// The inks as written: eight 8×8 patches.
    static var inks: [UInt8] {
        let patches: [[UInt8]] = [[0, 0, 0, 0], [255, 0, 0, 0], [0, 255, 0, 0], [0, 0, 255, 0], [0, 0, 0, 255], [200, 40, 0, 20], [0, 160, 220, 0], [60, 60, 60, 60]]
        var inks: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<32 { inks += patches[(y / 8) * 4 + x / 8] }
        }
        return inks
    }

    @Test("an untagged CMYK TIFF goes through the standard profile; ignore, or no converter, keeps libtiff's formula")
    func tiff() throws {
        let reference = try #require(ColorReference.sRGB(cmyk: Self.inks, inverted: false, profile: try CMYKColorTests.standard))
        let managed = try ColorFixtures.decode(Self.cmyk, policy: .sRGB)
        let difference = ColorReference.difference(managed.pixels.bytes, reference: reference)
        #expect(difference.mean <= 1 && difference.p99 <= 3, "\(difference)")
        let formula = try ColorFixtures.decode(Self.cmyk, policy: .ignore)
        #expect(ColorReference.difference(formula.pixels.bytes, reference: reference).mean > 5)
        #expect(try TIFFCoder().decode(Self.cmyk, options: ImageDecodingOptions()).pixels == formula.pixels)
        let noStandard = TIFFCoder(colorConverter: LCMSColorConverter(standardCMYKProfile: nil))
        #expect(try noStandard.decode(Self.cmyk, options: ImageDecodingOptions()).pixels == formula.pixels)
    }
}
