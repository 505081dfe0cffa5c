import CLCMS2
import WebImage

/// One RGB profile's way from 16-bit RGBA samples to 8-bit sRGB RGBA in a single lcms2 transform
/// (`TYPE_RGBA_16` in, `TYPE_RGBA_8` out, perceptual intent, alpha copied and rescaled): the
/// profile is applied at the source's precision and the result rounded once.
final class WideSRGBTransform: WideColorTransform, @unchecked Sendable {  // an lcms2 transform made with cmsFLAGS_NOCACHE is safe on several threads at once; deleted once, in deinit
    private let transform: cmsHTRANSFORM

    /// The transform of the RGB `profile`; `badImageData` when lcms2 cannot read it or make a
    /// transform from it, `unsupportedFormat` for a profile that is not RGB.
    init(profile: ColorProfile) throws {
        let api = try LCMS2Library.require()
        guard profile.colorSpace == .rgb else {
            throw WebImageError(.unsupportedFormat, "colour profile: only RGB profiles convert 16-bit samples")
        }
        let source = profile.data.withUnsafeBytes { api.cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let source else { throw WebImageError.badData("colour profile: lcms2 cannot read the embedded ICC profile") }
        defer { _ = api.cmsCloseProfile(source) }
        guard api.cmsGetColorSpace(source) == cmsSigRgbData else {
            throw WebImageError.badData("colour profile: the ICC profile's colour space does not match its header")
        }
        guard let sRGB = api.cmsCreate_sRGBProfile() else {
            throw WebImageError(.decodingFailed, "colour profile: lcms2 made no sRGB profile")
        }
        defer { _ = api.cmsCloseProfile(sRGB) }
        guard
            let transform = api.cmsCreateTransform(
                source, webimage_lcms2_rgba16, sRGB, webimage_lcms2_rgba8, cmsUInt32Number(INTENT_PERCEPTUAL),
                webimage_lcms2_flags)
        else {
            throw WebImageError.badData("colour profile: lcms2 cannot convert the embedded ICC profile to sRGB")
        }
        self.transform = transform
    }

    deinit { lcms.cmsDeleteTransform(transform) }

    func convert(
        _ source: UnsafeRawPointer, sourceRowBytes: Int, into destination: UnsafeMutableRawPointer, destinationRowBytes: Int,
        width: Int, rows: Int
    ) {
        guard width > 0, rows > 0 else { return }
        lcms.cmsDoTransformLineStride(
            transform, source, destination, cmsUInt32Number(width), cmsUInt32Number(rows), cmsUInt32Number(sourceRowBytes),
            cmsUInt32Number(destinationRowBytes), 0, 0)
    }
}
