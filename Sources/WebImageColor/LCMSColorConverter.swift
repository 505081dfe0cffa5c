public import WebImage

/// Converts images with an embedded colour profile to sRGB with Little CMS 2 (loaded on first
/// use), perceptual intent: what ImageIO does for SDWebImage, Kingfisher and Nuke, and lcms2 for
/// libvips and imgproxy.
///
/// RGB and grey profiles are converted; a profile that is sRGB already (or within one level of
/// it on every probed colour) costs a lookup and no pixel work, and one lcms2 cannot use (broken
/// tags, CMYK and other spaces for now, or no lcms2 on the machine) leaves the pixels as stored,
/// as browsers show such photos. Animations are converted frame by
/// frame as they are decoded. Transforms are kept per profile (64 at most), so a gallery of
/// photos from one phone makes one.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [JPEGCoder(), PNGCoder()], colorConverter: LCMSColorConverter.shared)
/// let image = try coders.decode(data)   // sRGB pixels, whatever profile the file carried
/// ```
public final class LCMSColorConverter: ColorConverting {
    /// The process-wide converter (one table of transforms).
    public static let shared = LCMSColorConverter()

    private let transforms = CostLRU<ColorProfile, SRGBTransform>(costLimit: 64)

    /// A converter with its own table of transforms.
    public init() {}

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

    private func transform(for profile: ColorProfile) throws -> SRGBTransform {
        if let cached = transforms.value(forKey: profile) { return cached }
        let made = try SRGBTransform(profile: profile)
        transforms.set(made, forKey: profile, cost: 1)
        return made
    }

    /// The transform of `profile`, or the identity when lcms2 cannot use it: a photo with a broken
    /// or unsupported profile is shown as stored (as browsers do), not refused.
    private func usableTransform(for profile: ColorProfile) -> SRGBTransform {
        if let made = try? transform(for: profile) { return made }
        transforms.set(SRGBTransform.identity, forKey: profile, cost: 1)
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
