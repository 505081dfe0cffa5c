import Foundation
import WebImage
import WebImageCodecs
import WebImageTesting

/// ICC profiles made by lcms2 for the tests, files carrying them, and an independent reference:
/// the CIE matrices of Display P3 and sRGB, written here from their published primaries.
enum ColorFixtures {
    static let displayP3 = TestColorProfiles.displayP3
    static let sRGB = TestColorProfiles.sRGB
    static let linearGray = TestColorProfiles.linearGray

    // MARK: Files

    /// A colourful 48×32 JPEG with `profile` split over APP2 segments of at most `partSize`
    /// bytes, written in the order `order` gives (1-based sequence numbers; default in order).
    static func jpeg(profile: ColorProfile?, partSize: Int = 60_000, order: [Int]? = nil, count: Int? = nil) throws -> Data {
        let image = Image(pixels: ImageFixtures.gradient(width: 48, height: 32), format: .jpeg)
        let plain = try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodingOptions())
        guard let profile else { return plain }
        return TestColorProfiles.embedding(profile, inJPEG: plain, partSize: partSize, order: order, count: count)
    }

    /// A 16×16 PNG of colour type `colorType` (0 grey, 2 RGB) with an `iCCP` chunk holding
    /// `profile` (stored deflate blocks), pixels from `value(x, y)`.
    static func png(profile: ColorProfile?, colorType: Int = 2, value: (Int, Int) -> [Int]) -> Data {
        let channels = colorType == 0 ? 1 : 3
        var chunks = [TestPNG.ihdr(width: 16, height: 16, colorType: colorType)]
        if let profile { chunks.append(TestPNG.chunk("iCCP", Array("test profile\0\0".utf8) + TestPNG.zlib([UInt8](profile.data)))) }
        let rows = TestPNG.scanlines(width: 16, height: 16, bitDepth: 8, channels: channels) { x, y in value(x, y) }
        chunks.append(TestPNG.chunk("IDAT", TestPNG.zlib(rows)))
        chunks.append(TestPNG.chunk("IEND", []))
        return TestPNG.file(chunks)
    }

    // MARK: Reference

    /// Display P3 (0–255) to sRGB (0–255, clipped) by the published matrices: P3 → XYZ (D65) →
    /// linear sRGB, both with the sRGB transfer curve.
    static func p3ToSRGB(_ rgb: [UInt8]) -> [Double] {
        let p3ToXYZ = [[0.4865709, 0.2656677, 0.1982173], [0.2289746, 0.6917385, 0.0792869], [0.0000000, 0.0451134, 1.0439444]]
        let xyzToSRGB = [[3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560], [0.0556434, -0.2040259, 1.0572252]]
        let linear = rgb.map { decode(Double($0) / 255) }
        let xyz = p3ToXYZ.map { row in zip(row, linear).reduce(0) { $0 + $1.0 * $1.1 } }
        return xyzToSRGB.map { row in encode(min(1, max(0, zip(row, xyz).reduce(0) { $0 + $1.0 * $1.1 }))) * 255 }
    }

    /// The sRGB transfer curve, encoded to linear.
    static func decode(_ value: Double) -> Double { value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4) }
    /// The sRGB transfer curve, linear to encoded.
    static func encode(_ value: Double) -> Double { value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055 }

    /// Decodes `data` with the standard coders under `policy`.
    static func decode(_ data: Data, policy: ColorPolicy) throws -> Image {
        var options = ImageDecodingOptions()
        options.colorPolicy = policy
        return try ImageCodersManager.standard().decode(data, options: options)
    }
}
