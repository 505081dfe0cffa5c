import CLCMS2
import Foundation
import WebImage

/// One profile's way to sRGB for 8-bit RGBA pixels: an lcms2 transform for an RGB profile (alpha
/// copied), a 256-entry table for a grey one, or nothing at all when the profile is sRGB already
/// (a probe of 216 colours moves none by more than one level); for a CMYK profile, an lcms2
/// transform from 4-byte ink samples to opaque RGBA.
final class SRGBTransform: @unchecked Sendable {  // an lcms2 transform made with cmsFLAGS_NOCACHE is safe on several threads at once; deleted once, in deinit
    private enum Kind {
        case identity
        case rgb(cmsHTRANSFORM)
        case gray([RGBA8])
        case cmyk(cmsHTRANSFORM)
    }

    private let kind: Kind

    /// Pixels left as they are.
    static let identity = SRGBTransform(kind: .identity)

    private init(kind: Kind) {
        self.kind = kind
    }

    /// Whether the profile converts to sRGB without changing any pixel by more than one level.
    var isIdentity: Bool {
        if case .identity = kind { return true }
        return false
    }

    /// The transform of `profile` (RGB, grey or CMYK; `invertedCMYK` for Adobe's inverted ink
    /// samples) with perceptual intent; `badImageData` when lcms2 cannot read the profile or make
    /// a transform from it, `unsupportedFormat` for other spaces.
    init(profile: ColorProfile, invertedCMYK: Bool = false) throws {
        let api = try LCMS2Library.require()
        if profile.colorSpace == .cmyk {
            kind = .cmyk(try Self.cmykTransform(profile, inverted: invertedCMYK, api: api))
            return
        }
        guard profile.colorSpace == .rgb || profile.colorSpace == .gray else {
            throw WebImageError(.unsupportedFormat, "colour profile: \(profile.colorSpace) profiles are not converted to sRGB")
        }
        let gray = profile.colorSpace == .gray
        let transform = try Self.lcmsTransform(
            from: profile, input: gray ? webimage_lcms2_gray8 : webimage_lcms2_rgba8,
            output: gray ? webimage_lcms2_rgb8 : webimage_lcms2_rgba8,
            flags: gray ? cmsUInt32Number(cmsFLAGS_NOCACHE) : webimage_lcms2_flags, api: api)
        if gray {
            var levels = (0...255).map { UInt8($0) }
            var rgb = [UInt8](repeating: 0, count: 256 * 3)
            api.cmsDoTransform(transform, &levels, &rgb, 256)
            api.cmsDeleteTransform(transform)
            let table = (0..<256).map { RGBA8(r: rgb[$0 * 3], g: rgb[$0 * 3 + 1], b: rgb[$0 * 3 + 2]) }
            let unchanged = table.enumerated().allSatisfy { level, colour in
                [colour.r, colour.g, colour.b].allSatisfy { abs(Int($0) - level) <= 1 }
            }
            kind = unchanged ? .identity : .gray(table)
        } else if Self.movesNothing(transform, api: api) {
            api.cmsDeleteTransform(transform)
            kind = .identity
        } else {
            kind = .rgb(transform)
        }
    }

    deinit {
        switch kind {
        case .rgb(let transform), .cmyk(let transform): lcms.cmsDeleteTransform(transform)
        case .identity, .gray: break
        }
    }

    /// The lcms2 transform from the RGB or grey `profile` to sRGB, perceptual intent, between the
    /// pixel formats given: `badImageData` when lcms2 cannot read the profile, its header names
    /// another colour space, or no transform can be made from it.
    static func lcmsTransform(
        from profile: ColorProfile, input: cmsUInt32Number, output: cmsUInt32Number, flags: cmsUInt32Number,
        api: webimage_lcms2_api
    ) throws -> cmsHTRANSFORM {
        let source = profile.data.withUnsafeBytes { api.cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let source else { throw WebImageError.badData("colour profile: lcms2 cannot read the embedded ICC profile") }
        defer { _ = api.cmsCloseProfile(source) }
        guard let sRGB = api.cmsCreate_sRGBProfile() else { throw WebImageError(.decodingFailed, "colour profile: lcms2 made no sRGB profile") }
        defer { _ = api.cmsCloseProfile(sRGB) }
        // The profile's own header must agree with what it is used for.
        guard api.cmsGetColorSpace(source) == (profile.colorSpace == .gray ? cmsSigGrayData : cmsSigRgbData) else {
            throw WebImageError.badData("colour profile: the ICC profile's colour space does not match its header")
        }
        guard let transform = api.cmsCreateTransform(source, input, sRGB, output, cmsUInt32Number(INTENT_PERCEPTUAL), flags) else {
            throw WebImageError.badData("colour profile: lcms2 cannot convert the embedded ICC profile to sRGB")
        }
        return transform
    }

    /// The lcms2 transform from 8-bit CMYK samples (inverted or not) through `profile` to RGBA.
    private static func cmykTransform(_ profile: ColorProfile, inverted: Bool, api: webimage_lcms2_api) throws
        -> cmsHTRANSFORM
    {
        let source = profile.data.withUnsafeBytes { api.cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let source else { throw WebImageError.badData("colour profile: lcms2 cannot read the CMYK ICC profile") }
        defer { _ = api.cmsCloseProfile(source) }
        guard api.cmsGetColorSpace(source) == cmsSigCmykData else {
            throw WebImageError.badData("colour profile: the ICC profile's colour space does not match its header")
        }
        guard let sRGB = api.cmsCreate_sRGBProfile() else { throw WebImageError(.decodingFailed, "colour profile: lcms2 made no sRGB profile") }
        defer { _ = api.cmsCloseProfile(sRGB) }
        let input = inverted ? webimage_lcms2_cmyk8_reverse : webimage_lcms2_cmyk8
        guard let transform = api.cmsCreateTransform(
            source, input, sRGB, webimage_lcms2_rgba8, cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(cmsFLAGS_NOCACHE))
        else {
            throw WebImageError.badData("colour profile: lcms2 cannot convert the CMYK ICC profile to sRGB")
        }
        return transform
    }

    /// Rewrites 4-byte C, M, Y, K samples in place as sRGB R, G, B, 255; false (samples untouched)
    /// when this is not a CMYK transform.
    func applyCMYK(to samples: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard case .cmyk(let transform) = kind, let base = samples.baseAddress else { return false }
        let count = samples.count / 4
        // In place: 4 bytes a pixel on both sides. lcms2 leaves the fourth output byte (alpha) as it was.
        lcms.cmsDoTransform(transform, base, base, cmsUInt32Number(count))
        var alpha = 3
        while alpha < count * 4 {
            samples[alpha] = 255
            alpha += 4
        }
        return true
    }

    /// `pixels` in sRGB (straight or premultiplied as given).
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        switch kind {
        case .identity, .cmyk:
            return pixels
        case .gray(let table):
            var converted = pixels
            converted.bytes.withUnsafeMutableBufferPointer { bytes in
                var index = 0
                while index + 3 < bytes.count {
                    let colour = table[Int(bytes[index])]
                    bytes[index] = colour.r
                    bytes[index + 1] = colour.g
                    bytes[index + 2] = colour.b
                    index += 4
                }
            }
            return converted
        case .rgb(let transform):
            // lcms2 converts colours, not colours times coverage.
            let premultiplied = pixels.alphaMode == .premultiplied && !pixels.isOpaque
            var converted = premultiplied ? pixels.unpremultiplied() : pixels
            let count = converted.width * converted.height
            converted.bytes.withUnsafeMutableBufferPointer { bytes in
                // In place: the input and output formats are the same size.
                lcms.cmsDoTransform(transform, bytes.baseAddress, bytes.baseAddress, cmsUInt32Number(count))
            }
            return premultiplied ? converted.converted(to: .premultiplied) : converted
        }
    }

    /// Whether `transform` moves none of 6 × 6 × 6 colours by more than one level.
    private static func movesNothing(_ transform: cmsHTRANSFORM, api: webimage_lcms2_api) -> Bool {
        let steps: [UInt8] = [0, 51, 102, 153, 204, 255]
        var probe: [UInt8] = []
        for r in steps { for g in steps { for b in steps { probe += [r, g, b, 255] } } }
        var result = [UInt8](repeating: 0, count: probe.count)
        api.cmsDoTransform(transform, &probe, &result, cmsUInt32Number(probe.count / 4))
        return zip(probe, result).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
