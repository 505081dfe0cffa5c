import CLCMS2
import WebImage

/// One profile's way from 16-bit RGBA samples to 8-bit sRGB RGBA in one step, the profile applied
/// at the source's precision and the result rounded once: for an RGB profile, an lcms2 transform
/// (`TYPE_RGBA_16` in, `TYPE_RGBA_8` out, perceptual intent, alpha copied and rescaled); for a
/// grey one, a table of the 65,536 grey levels in sRGB, made by lcms2 (grey is read from the red
/// sample, decoders having expanded it to R = G = B).
final class WideSRGBTransform: WideColorTransform, @unchecked Sendable {  // an lcms2 transform made with cmsFLAGS_NOCACHE is safe on several threads at once; deleted once, in deinit
    private enum Kind {
        case rgb(cmsHTRANSFORM)
        /// R, G, B bytes for each 16-bit grey level.
        case gray([UInt8])
    }

    private let kind: Kind

    /// The transform of the RGB or grey `profile`; `badImageData` when lcms2 cannot read it or
    /// make a transform from it, `unsupportedFormat` for other spaces.
    init(profile: ColorProfile) throws {
        let api = try LCMS2Library.require()
        guard profile.colorSpace == .rgb || profile.colorSpace == .gray else {
            throw WebImageError(.unsupportedFormat, "colour profile: only RGB and grey profiles convert 16-bit samples")
        }
        let gray = profile.colorSpace == .gray
        // Grey goes to RGB 16 bits in (the table is made from every level), RGBA 16 to 8 otherwise.
        let transform = try SRGBTransform.lcmsTransform(
            from: profile, input: gray ? webimage_lcms2_gray16 : webimage_lcms2_rgba16,
            output: gray ? webimage_lcms2_rgb8 : webimage_lcms2_rgba8,
            flags: gray ? cmsUInt32Number(cmsFLAGS_NOCACHE) : webimage_lcms2_flags, api: api)
        guard gray else {
            kind = .rgb(transform)
            return
        }
        var levels = (0...65535).map { UInt16($0) }
        var table = [UInt8](repeating: 0, count: 65536 * 3)
        api.cmsDoTransform(transform, &levels, &table, 65536)
        api.cmsDeleteTransform(transform)
        kind = .gray(table)
    }

    deinit {
        if case .rgb(let transform) = kind { lcms.cmsDeleteTransform(transform) }
    }

    func convert(
        _ source: UnsafeRawPointer, sourceRowBytes: Int, into destination: UnsafeMutableRawPointer, destinationRowBytes: Int,
        width: Int, rows: Int
    ) {
        guard width > 0, rows > 0 else { return }
        switch kind {
        case .rgb(let transform):
            lcms.cmsDoTransformLineStride(
                transform, source, destination, cmsUInt32Number(width), cmsUInt32Number(rows), cmsUInt32Number(sourceRowBytes),
                cmsUInt32Number(destinationRowBytes), 0, 0)
        case .gray(let table):
            table.withUnsafeBufferPointer { table in
                for row in 0..<rows {
                    let from = (source + row * sourceRowBytes).assumingMemoryBound(to: UInt16.self)
                    let to = (destination + row * destinationRowBytes).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let level = Int(from[x * 4]) * 3
                        to[x * 4] = table[level]
                        to[x * 4 + 1] = table[level + 1]
                        to[x * 4 + 2] = table[level + 2]
                        // Rounded as lcms2 rounds 16 bits to 8.
                        to[x * 4 + 3] = UInt8((UInt32(from[x * 4 + 3]) * 65281 + 8_388_608) >> 24)
                    }
                }
            }
        }
    }
}
