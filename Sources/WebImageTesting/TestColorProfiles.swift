import CLCMS2
public import Foundation
public import WebImage

/// ICC profiles made by lcms2 for tests (Display P3, Adobe RGB, ProPhoto, linear sRGB and grey, sRGB), and JPEG bytes carrying
/// one in APP2 segments written here byte by byte.
public enum TestColorProfiles {
    static let api: webimage_lcms2_api = {
        var message = [CChar](repeating: 0, count: 256)
        guard let table = webimage_lcms2_load(&message, message.count) else { fatalError("lcms2 cannot be loaded") }
        return table.pointee
    }()

    /// Display P3: DCI-P3 primaries, D65, the sRGB transfer curve (as Apple's phones write it).
    public static let displayP3: ColorProfile = rgbProfile(
        red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
        curve: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045], curveType: 4)

    /// sRGB as lcms2 makes it.
    public static let sRGB: ColorProfile = save(api.cmsCreate_sRGBProfile())

    /// A linear (gamma 1) greyscale profile, D65.
    public static let linearGray: ColorProfile = {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var gamma = [1.0]
        let curve = api.cmsBuildParametricToneCurve(nil, 1, &gamma)
        defer { api.cmsFreeToneCurve(curve) }
        return save(api.cmsCreateGrayProfile(&white, curve))
    }()

    /// Adobe RGB (1998): its primaries, D65, gamma 563/256.
    public static let adobeRGB: ColorProfile = rgbProfile(
        red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), curve: [563 / 256], curveType: 1)

    /// ProPhoto RGB (ROMM): its primaries, D50, gamma 1.8.
    public static let proPhotoRGB: ColorProfile = rgbProfile(
        red: (0.7347, 0.2653), green: (0.1596, 0.8404), blue: (0.0366, 0.0001), curve: [1.8], curveType: 1,
        white: (0.3457, 0.3585))

    /// Linear sRGB: sRGB's primaries, D65, gamma 1 (what renderers and HDR pipelines export).
    public static let linearSRGB: ColorProfile = rgbProfile(
        red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), curve: [1], curveType: 1)

    /// An RGB profile of `red`, `green` and `blue` primaries (xy), a `white` point (D65 unless
    /// given) and one tone curve for all three channels (lcms2's parametric `curveType` with
    /// `curve` as its parameters).
    public static func rgbProfile(
        red: (Double, Double), green: (Double, Double), blue: (Double, Double), curve: [Double], curveType: Int32,
        white whitePoint: (Double, Double) = (0.3127, 0.3290)
    ) -> ColorProfile {
        var white = cmsCIExyY(x: whitePoint.0, y: whitePoint.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        var parameters = curve
        let tone = api.cmsBuildParametricToneCurve(nil, curveType, &parameters)
        defer { api.cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        return save(api.cmsCreateRGBProfile(&white, &primaries, &curves))
    }

    static func save(_ profile: cmsHPROFILE?) -> ColorProfile {
        guard let profile else { fatalError("lcms2 made no profile") }
        defer { _ = api.cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        _ = api.cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        _ = api.cmsSaveProfileToMem(profile, &bytes, &size)
        return ColorProfile(iccData: Data(bytes))!
    }

    /// `jpeg` with `profile` split over APP2 segments of at most `partSize` bytes after SOI,
    /// written in the order `order` gives (1-based sequence numbers; default in order), each
    /// declaring `count` parts (default: the real count).
    public static func embedding(
        _ profile: ColorProfile, inJPEG jpeg: Data, partSize: Int = 60_000, order: [Int]? = nil, count: Int? = nil
    ) -> Data {
        let bytes = [UInt8](profile.data)
        let parts = stride(from: 0, to: bytes.count, by: partSize).map { Array(bytes[$0..<min($0 + partSize, bytes.count)]) }
        var segments: [UInt8] = []
        for sequence in order ?? Array(1...parts.count) {
            let payload = Array("ICC_PROFILE\0".utf8) + [UInt8(sequence), UInt8(count ?? parts.count)] + parts[sequence - 1]
            segments += [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return Data(jpeg.prefix(2) + segments + jpeg.dropFirst(2))
    }
}
