import Foundation
public import WebImage

/// Converts images with an embedded colour profile to sRGB with Little CMS 2 (loaded on first
/// use), perceptual intent: what ImageIO does for SDWebImage, Kingfisher and Nuke, and lcms2 for
/// libvips and imgproxy.
///
/// RGB and grey profiles are converted; a profile that is sRGB already (or within one level of
/// it on every probed colour) costs a lookup and no pixel work, and one lcms2 cannot use (broken
/// tags, Lab and other spaces, or no lcms2 on the machine) leaves the pixels as stored,
/// as browsers show such photos. Animations are converted frame by
/// frame as they are decoded. Transforms are kept per profile (64 at most), so a gallery of
/// photos from one phone makes one.
///
/// CMYK and YCCK JPEGs go through their embedded CMYK profile, or through
/// ``standardCMYKProfile`` when they carry none (see ``convertCMYKToSRGB(_:profile:inverted:)``).
///
/// ```swift
/// let coders = ImageCodersManager(coders: [JPEGCoder(), PNGCoder()], colorConverter: LCMSColorConverter.shared)
/// let image = try coders.decode(data)   // sRGB pixels, whatever profile the file carried
/// ```
public final class LCMSColorConverter: ColorConverting {
    /// The process-wide converter (one table of transforms).
    public static let shared = LCMSColorConverter()

    /// A transform is made per profile and, for CMYK, per storage (Adobe's inverted inks or not).
    private struct TransformKey: Hashable {
        let profile: ColorProfile
        let invertedCMYK: Bool
    }

    private let transforms = CostLRU<TransformKey, SRGBTransform>(costLimit: 64)
    /// The 16-bit-to-8-bit transforms of the profiles high-bit-depth sources were decoded with.
    private let wideTransforms = CostLRU<ColorProfile, WideSRGBTransform>(costLimit: 64)

    /// The CMYK profile given, or nil to use the installed one (read on first need).
    private let givenCMYKProfile: ColorProfile??

    /// The CMYK profile for CMYK files that embed none: the one given, else the first of
    /// ``standardCMYKProfilePaths`` that holds a CMYK profile, read once per process when an
    /// untagged CMYK file first needs it (not when a converter is made, so start-up reads no file).
    public var standardCMYKProfile: ColorProfile? { givenCMYKProfile ?? Self.installed }

    /// The installed standard profile, read on first use.
    private static let installed = installedCMYKProfile()

    /// A converter with its own table of transforms, converting untagged CMYK through the
    /// installed standard profile (``standardCMYKProfile``).
    public init() {
        givenCMYKProfile = nil
    }

    /// A converter converting untagged CMYK through `standardCMYKProfile`; nil leaves untagged
    /// CMYK to the decoder's formula.
    public init(standardCMYKProfile: ColorProfile?) {
        givenCMYKProfile = .some(standardCMYKProfile)
    }

    /// Where the standard CMYK profile is looked for: `$WEBIMAGE_CMYK_PROFILE` when set, then
    /// Ghostscript's `default_cmyk.icc` (Debian's `libgs-common`, installed by the set-up script; a
    /// SWOP-like coated press profile, which is what untagged CMYK JPEGs from print workflows
    /// mostly assume), then macOS's Generic CMYK Profile.
    public static var standardCMYKProfilePaths: [String] {
        var paths: [String] = []
        if let custom = ProcessInfo.processInfo.environment["WEBIMAGE_CMYK_PROFILE"], !custom.isEmpty { paths.append(custom) }
        paths += [
            "/usr/share/color/icc/ghostscript/default_cmyk.icc",
            "/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc",
            "/System/Library/ColorSync/Profiles/Generic CMYK Profile.icc",
        ]
        return paths
    }

    /// The first CMYK profile found at ``standardCMYKProfilePaths``, or nil.
    public static func installedCMYKProfile() -> ColorProfile? {
        for path in standardCMYKProfilePaths {
            guard let data = FileManager.default.contents(atPath: path), let profile = ColorProfile(iccData: data),
                profile.colorSpace == .cmyk
            else { continue }
            return profile
        }
        return nil
    }

    public func convertToSRGB(_ image: Image) throws -> Image {
        guard let profile = image.colorProfile else { return image }
        let transform = usableTransform(for: profile)
        guard !transform.isIdentity else { return image.droppingColorProfile() }
        return Image(
            pixels: transform.apply(to: image.pixels), scale: image.scale, orientation: image.orientation, format: image.format,
            animation: image.animation.map { ColorConvertedAnimation(base: $0, transform: transform) }, hasAlpha: image.hasAlpha,
            originalPixelSize: image.originalPixelSize)
    }

    /// Whether `profile` is sRGB for all practical purposes (converting moves no colour by more
    /// than one level). Throws as ``convertToSRGB(_:)`` does for a profile lcms2 cannot use.
    public func isSRGB(_ profile: ColorProfile) throws -> Bool {
        try transform(for: profile).isIdentity
    }

    /// Converts CMYK samples through `profile` when it is a CMYK profile lcms2 can use, else
    /// through ``standardCMYKProfile``; false when neither serves (or lcms2 is missing).
    public func convertCMYKToSRGB(
        _ samples: UnsafeMutableBufferPointer<UInt8>, profile: ColorProfile?, inverted: Bool
    ) -> Bool {
        for candidate in [profile, standardCMYKProfile] {
            guard let candidate, candidate.colorSpace == .cmyk else { continue }
            if usableTransform(for: candidate, invertedCMYK: inverted).applyCMYK(to: samples) { return true }
        }
        return false
    }

    /// The one-step 16-bit-to-8-bit transform of an RGB or grey `profile`, or nil when its 8-bit
    /// transform moves nothing (sRGB or near-sRGB: the decoder keeps its 8-bit path) or lcms2
    /// cannot use it.
    public func wideTransform(for profile: ColorProfile) -> (any WideColorTransform)? {
        guard profile.colorSpace == .rgb || profile.colorSpace == .gray, !usableTransform(for: profile).isIdentity else { return nil }
        if let cached = wideTransforms.value(forKey: profile) { return cached }
        guard let made = try? WideSRGBTransform(profile: profile) else { return nil }
        wideTransforms.set(made, forKey: profile, cost: 1)
        return made
    }

    private func transform(for profile: ColorProfile, invertedCMYK: Bool = false) throws -> SRGBTransform {
        let key = TransformKey(profile: profile, invertedCMYK: invertedCMYK)
        if let cached = transforms.value(forKey: key) { return cached }
        let made = try SRGBTransform(profile: profile, invertedCMYK: invertedCMYK)
        transforms.set(made, forKey: key, cost: 1)
        return made
    }

    /// The transform of `profile`, or the identity when lcms2 cannot use it: a photo with a broken
    /// or unsupported profile is shown as stored (as browsers do), not refused.
    private func usableTransform(for profile: ColorProfile, invertedCMYK: Bool = false) -> SRGBTransform {
        if let made = try? transform(for: profile, invertedCMYK: invertedCMYK) { return made }
        transforms.set(SRGBTransform.identity, forKey: TransformKey(profile: profile, invertedCMYK: invertedCMYK), cost: 1)
        return SRGBTransform.identity
    }
}

/// An animation whose frames are converted to sRGB as they are decoded.
struct ColorConvertedAnimation: AnimatedImageSource {
    let base: any AnimatedImageSource
    let transform: SRGBTransform

    var frameCount: Int { base.frameCount }
    var loopCount: Int { base.loopCount }
    var canvasSize: PixelSize { base.canvasSize }
    func duration(at index: Int) -> Double { base.duration(at: index) }
    func storedDuration(at index: Int) -> Double { base.storedDuration(at: index) }
    var heldByteCount: Int { base.heldByteCount }

    func frame(at index: Int) throws -> AnimationFrame {
        var frame = try base.frame(at: index)
        frame.pixels = transform.apply(to: frame.pixels)
        return frame
    }
}
