import CLCMS2
public import WebImage

/// lcms2's own conversion to sRGB at double precision (its floating-point pipeline, none of the
/// 8-bit shortcuts a decoder takes), and CIEDE2000 differences against it: the yardstick of the
/// colour tests and the corpus proof.
///
/// ```swift
/// let reference = try #require(ColorReference.sRGB(rgba: stored.pixels.bytes, profile: profile))
/// let difference = ColorReference.difference(converted.pixels.bytes, reference: reference)
/// #expect(difference.mean <= 1 && difference.p99 <= 3)
/// ```
public enum ColorReference {
    /// CIEDE2000 over every pixel: the mean, the 99th percentile and the largest.
    public struct DeltaE: Sendable, CustomStringConvertible {
        public var mean: Double
        public var p99: Double
        public var max: Double

        public var description: String { String(format: "ΔE2000 mean %.2f, p99 %.2f, max %.2f", mean, p99, max) }
    }

    static var api: webimage_lcms2_api { TestColorProfiles.api }

    /// sRGB (three doubles 0…1 a pixel) of 8-bit RGBA `rgba` (or grey, read from the red channel,
    /// for a grey profile) through `profile`, perceptual intent; nil when lcms2 cannot use the profile.
    public static func sRGB(rgba: [UInt8], profile: ColorProfile) -> [Double]? {
        let count = rgba.count / 4
        if profile.colorSpace == .gray {
            let grey = (0..<count).map { Double(rgba[$0 * 4]) / 255 }
            return transform(grey, from: profile, format: webimage_lcms2_gray_double, count: count)
        }
        return transform(rgbDoubles(rgba), from: profile, format: webimage_lcms2_rgb_double, count: count)
    }

    /// sRGB (three doubles 0…1 a pixel) of 8-bit C, M, Y, K samples through `profile`;
    /// `inverted` for Adobe's 255 − ink storage; nil when lcms2 cannot use the profile.
    public static func sRGB(cmyk: [UInt8], inverted: Bool, profile: ColorProfile) -> [Double]? {
        // lcms2's floating-point CMYK is ink in percent.
        let inks = cmyk.map { Double(inverted ? 255 - $0 : $0) / 255 * 100 }
        return transform(inks, from: profile, format: webimage_lcms2_cmyk_double, count: cmyk.count / 4)
    }

    /// lcms2 will not mix integer and floating-point formats in one transform, so the 8-bit
    /// samples arrive as doubles.
    private static func transform(_ samples: [Double], from profile: ColorProfile, format: cmsUInt32Number, count: Int) -> [Double]? {
        withTransform(from: profile, input: format, output: webimage_lcms2_rgb_double, flags: cmsUInt32Number(cmsFLAGS_NOCACHE)) {
            made in
            var input = samples
            var output = [Double](repeating: 0, count: count * 3)
            api.cmsDoTransform(made, &input, &output, cmsUInt32Number(count))
            return output.map { Swift.min(1, Swift.max(0, $0)) }
        }
    }

    /// CIEDE2000 between the 8-bit sRGB RGBA pixels `rgba` and `reference` (three sRGB doubles
    /// 0…1 a pixel), both taken to CIELAB (D50) by lcms2.
    public static func difference(_ rgba: [UInt8], reference: [Double]) -> DeltaE {
        let count = rgba.count / 4
        precondition(reference.count == count * 3, "one reference colour a pixel")
        let a = lab(rgbDoubles(rgba)), b = lab(reference)
        var differences = [Double](repeating: 0, count: count)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                a.withMemoryRebound(to: cmsCIELab.self) { a in
                    b.withMemoryRebound(to: cmsCIELab.self) { b in
                        for pixel in 0..<count {
                            var x = a[pixel], y = b[pixel]
                            differences[pixel] = api.cmsCIE2000DeltaE(&x, &y, 1, 1, 1)
                        }
                    }
                }
            }
        }
        guard count > 0 else { return DeltaE(mean: 0, p99: 0, max: 0) }
        let sorted = differences.sorted()
        return DeltaE(
            mean: differences.reduce(0, +) / Double(count), p99: sorted[Swift.min(count - 1, Int(Double(count) * 0.99))],
            max: sorted[count - 1])
    }

    /// The colour channels of 8-bit RGBA as doubles 0…1, three a pixel.
    static func rgbDoubles(_ rgba: [UInt8]) -> [Double] {
        let count = rgba.count / 4
        var rgb = [Double](repeating: 0, count: count * 3)
        for pixel in 0..<count {
            for channel in 0..<3 { rgb[pixel * 3 + channel] = Double(rgba[pixel * 4 + channel]) / 255 }
        }
        return rgb
    }

    /// CIELAB (D50) of sRGB doubles, three a colour.
    static func lab(_ rgb: [Double]) -> [Double] {
        let sRGB = api.cmsCreate_sRGBProfile()
        let lab = api.cmsCreateLab4Profile(nil)
        defer {
            _ = api.cmsCloseProfile(sRGB)
            _ = api.cmsCloseProfile(lab)
        }
        guard let made = api.cmsCreateTransform(
            sRGB, webimage_lcms2_rgb_double, lab, webimage_lcms2_lab_double, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
            cmsUInt32Number(cmsFLAGS_NOCACHE))
        else { fatalError("lcms2 cannot make the Lab transform") }
        defer { api.cmsDeleteTransform(made) }
        var input = rgb  // lcms2's floating-point RGB is 0…1
        var output = [Double](repeating: 0, count: rgb.count)
        api.cmsDoTransform(made, &input, &output, cmsUInt32Number(rgb.count / 3))
        return output
    }
}

extension ColorReference {
    /// 16-bit RGBA samples (straight alpha) converted to sRGB through `profile` by lcms2 at 16
    /// bits in and out (perceptual intent), then rounded to 8 bits: the reference a high-bit-depth
    /// decode must meet. Alpha is rounded the same way. Nil when lcms2 cannot use the profile.
    /// For a grey profile, grey is read from the red sample.
    public static func sRGB8(rgba16: [UInt16], profile: ColorProfile) -> [UInt8]? {
        func round8(_ value: UInt16) -> UInt8 { UInt8((UInt32(value) * 255 + 32767) / 65535) }
        guard profile.colorSpace == .gray else {
            return convert(rgba16, profile: profile, input: webimage_lcms2_rgba16, output: webimage_lcms2_rgba16, outputType: UInt16.self)
                .map { $0.map(round8) }
        }
        // Grey to RGB, three samples a pixel, then alpha put back.
        let count = rgba16.count / 4
        let grey = (0..<count).map { rgba16[$0 * 4] }
        guard
            let rgb = convert(
                grey, profile: profile, input: webimage_lcms2_gray16, output: webimage_lcms2_rgb16, outputType: UInt16.self,
                pixelCount: count, outputSamples: 3)
        else { return nil }
        return (0..<count).flatMap { pixel -> [UInt8] in
            let alpha: UInt8 = round8(rgba16[pixel * 4 + 3])
            return [round8(rgb[pixel * 3]), round8(rgb[pixel * 3 + 1]), round8(rgb[pixel * 3 + 2]), alpha]
        }
    }

    /// What decoders did before converting at full precision: the 16-bit samples rounded to 8
    /// bits first, then converted to sRGB through `profile` by lcms2 8 bits in and out.
    public static func sRGB8AfterRounding(rgba16: [UInt16], profile: ColorProfile) -> [UInt8]? {
        let rounded = rgba16.map { UInt8((UInt32($0) * 255 + 32767) / 65535) }
        guard profile.colorSpace == .gray else {
            return convert(rounded, profile: profile, input: webimage_lcms2_rgba8, output: webimage_lcms2_rgba8, outputType: UInt8.self)
        }
        let count = rounded.count / 4
        guard
            let rgb = convert(
                (0..<count).map { rounded[$0 * 4] }, profile: profile, input: webimage_lcms2_gray8, output: webimage_lcms2_rgb8,
                outputType: UInt8.self, pixelCount: count, outputSamples: 3)
        else { return nil }
        return (0..<count).flatMap { pixel -> [UInt8] in
            let alpha: UInt8 = rounded[pixel * 4 + 3]
            return [rgb[pixel * 3], rgb[pixel * 3 + 1], rgb[pixel * 3 + 2], alpha]
        }
    }

    /// The largest difference between two sample arrays of one length, in levels.
    public static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        precondition(a.count == b.count, "two images of one size")
        return zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// `samples` (RGBA unless told) through `profile` to sRGB with lcms2, alpha copied.
    private static func convert<Input: FixedWidthInteger, Output: FixedWidthInteger>(
        _ samples: [Input], profile: ColorProfile, input: cmsUInt32Number, output: cmsUInt32Number, outputType: Output.Type,
        pixelCount: Int? = nil, outputSamples: Int = 4
    ) -> [Output]? {
        let count = pixelCount ?? samples.count / 4
        return withTransform(from: profile, input: input, output: output, flags: cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA)) {
            made in
            var from = samples
            var to = [Output](repeating: 0, count: count * outputSamples)
            api.cmsDoTransform(made, &from, &to, cmsUInt32Number(count))
            return to
        }
    }

    /// `body`'s result with a perceptual lcms2 transform from `profile` to sRGB (made and deleted
    /// here); nil when lcms2 cannot use the profile.
    private static func withTransform<Result>(
        from profile: ColorProfile, input: cmsUInt32Number, output: cmsUInt32Number, flags: cmsUInt32Number,
        _ body: (cmsHTRANSFORM) -> Result
    ) -> Result? {
        let source = profile.data.withUnsafeBytes { api.cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        let sRGB = api.cmsCreate_sRGBProfile()
        defer {
            _ = api.cmsCloseProfile(source)
            _ = api.cmsCloseProfile(sRGB)
        }
        guard let made = api.cmsCreateTransform(source, input, sRGB, output, cmsUInt32Number(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        defer { api.cmsDeleteTransform(made) }
        return body(made)
    }
}
