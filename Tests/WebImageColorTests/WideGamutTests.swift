import Foundation
import Testing
import WebImage
import WebImageCodecs
import WebImageTesting

/// Issue 26's bounds on the profiles photos come with: Display P3 (phones), Adobe RGB and
/// ProPhoto (cameras and raw converters), linear sRGB (renderers), each carried by every format
/// that embeds a profile, decoded to sRGB within a mean CIEDE2000 of 1.0 and a 99th percentile of
/// 3.0 of lcms2's double-precision conversion of the same stored pixels.
@Suite("Wide-gamut and linear sources")
struct WideGamutTests {
    static let profiles: [(String, ColorProfile)] = [
        ("Display P3", TestColorProfiles.displayP3), ("Adobe RGB", TestColorProfiles.adobeRGB),
        ("ProPhoto", TestColorProfiles.proPhotoRGB), ("linear sRGB", TestColorProfiles.linearSRGB),
    ]

    @Test("P3, Adobe RGB, ProPhoto and linear sources in JPEG, PNG, WebP, TIFF and AVIF decode to sRGB within the bounds", arguments: profiles.indices)
    func withinBounds(_ index: Int) throws {
        let (name, profile) = Self.profiles[index]
        let coders = ImageCodersManager.standard()
        let image = Image(pixels: ImageFixtures.gradient(width: 96, height: 64), format: .png, colorProfile: profile)
        var lossless = ImageEncodingOptions()
        lossless.lossless = true
        for format in [ImageFormat.jpeg, .png, .webp, .tiff, .avif] {
            let written = try coders.encode(image, as: format, options: format == .jpeg ? ImageEncodingOptions(quality: 0.9) : lossless)
            let stored = try ColorFixtures.decode(written, policy: .ignore)
            let converted = try ColorFixtures.decode(written, policy: .sRGB)
            #expect(converted.colorProfile == nil)
            let reference = try #require(ColorReference.sRGB(rgba: stored.pixels.bytes, profile: profile))
            let difference = ColorReference.difference(converted.pixels.bytes, reference: reference)
            #expect(difference.mean <= 1.0 && difference.p99 <= 3.0, "\(name) in \(format): \(difference)")
            // And the profile matters: shown as stored, the same pixels are visibly off.
            let ignored = ColorReference.difference(stored.pixels.bytes, reference: reference)
            #expect(ignored.mean > 2, "\(name) in \(format): ignoring the profile is only \(ignored)")
        }
    }
}
