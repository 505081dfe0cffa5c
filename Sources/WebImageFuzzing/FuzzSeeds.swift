public import Foundation
import WebImageCodecs
import WebImagePNM
import WebImageTesting

/// A starting input for a fuzz target, made by the project's own encoders or by hand.
public struct FuzzSeed: Sendable {
    /// A file name for the seed, with the format's extension (`gradient-33x21.jpg`).
    public var name: String
    /// The seed's bytes.
    public var data: Data

    public init(name: String, data: Data) {
        self.name = name
        self.data = data
    }
}

extension FuzzTarget {
    /// Small valid inputs covering this target's main paths: every format variant our encoders
    /// write (still, alpha, lossless, animated), or hand-written `data:` URLs.
    ///
    /// `Fuzz/run.sh seeds` writes them to `Fuzz/Seeds/<target>/`; every one decodes.
    ///
    /// ```swift
    /// for seed in try FuzzTarget.gif.seeds() { try seed.data.write(to: directory.appendingPathComponent(seed.name)) }
    /// ```
    public func seeds() throws -> [FuzzSeed] {
        switch self {
        case .jpeg: try Self.jpegSeeds()
        case .png: try Self.pngSeeds()
        case .gif, .gifLZWDifferential: try Self.gifSeeds()
        case .webp: try Self.webpSeeds()
        case .avif: try Self.avifSeeds()
        case .heif: try Self.heifSeeds()
        case .jxl: try Self.jxlSeeds()
        case .tiff: try Self.tiffSeeds()
        case .svg: Self.svgSeeds
        case .pnm: try Self.pnmSeeds()
        case .coders:
            try [Self.jpegSeeds()[0], Self.pngSeeds()[0], Self.pngSeeds()[2], Self.gifSeeds()[1], Self.webpSeeds()[2]]
        case .dataURL: Self.dataURLSeeds
        case .icc: Self.iccSeeds
        case .metadata: Self.metadataSeeds
        }
    }

    private static let seedCoders = ImageCodersManager.standard()

    private static func encode(
        _ pixels: PixelBuffer, as format: ImageFormat, quality: Double = 0.9, lossless: Bool = false
    ) throws -> Data {
        try encode(Image(pixels: pixels), as: format, quality: quality, lossless: lossless)
    }

    private static func encode(
        _ image: Image, as format: ImageFormat, quality: Double = 0.9, lossless: Bool = false
    ) throws -> Data {
        var options = ImageEncodingOptions(quality: quality)
        options.lossless = lossless
        return try seedCoders.encode(image, as: format, options: options)
    }

    private static func jpegSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-33x21.jpg", data: try encode(ImageFixtures.gradient(width: 33, height: 21), as: .jpeg)),
            FuzzSeed(name: "gradient-8x8-q10.jpg", data: try encode(ImageFixtures.gradient(width: 8, height: 8), as: .jpeg, quality: 0.1)),
            FuzzSeed(name: "translucent-64x3.jpg", data: try encode(ImageFixtures.translucentGradient(width: 64, height: 3), as: .jpeg, quality: 0.5)),
        ]
    }

    private static func pngSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-19x13.png", data: try encode(ImageFixtures.gradient(width: 19, height: 13), as: .png)),
            FuzzSeed(name: "translucent-16x9.png", data: try encode(ImageFixtures.translucentGradient(width: 16, height: 9), as: .png)),
            FuzzSeed(name: "animation-3.apng", data: try encode(ImageFixtures.animation(frames: 3), as: .apng)),
        ]
    }

    private static func gifSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-16x16.gif", data: try encode(ImageFixtures.gradient(width: 16, height: 16), as: .gif)),
            FuzzSeed(name: "animation-3.gif", data: try encode(ImageFixtures.animation(frames: 3, loopCount: 2), as: .gif)),
            FuzzSeed(name: "translucent-12x5.gif", data: try encode(ImageFixtures.translucentGradient(width: 12, height: 5), as: .gif)),
            // The ICCRGBG1 and XMP DataXMP application extensions (read by the header reader and the decoder).
            FuzzSeed(
                name: "profile-xmp-8x8.gif",
                data: try seedCoders.encode(
                    Image(
                        pixels: ImageFixtures.gradient(width: 8, height: 8), colorProfile: TestColorProfiles.adobeRGB,
                        metadata: ImageMetadata(xmp: MetadataFixtures.xmp(orientation: 1))),
                    as: .gif, options: ImageEncodingOptions(metadataPolicy: .keepAll))),
        ]
    }

    private static func webpSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-20x14-lossy.webp", data: try encode(ImageFixtures.gradient(width: 20, height: 14), as: .webp)),
            FuzzSeed(name: "translucent-16x9-lossless.webp", data: try encode(ImageFixtures.translucentGradient(width: 16, height: 9), as: .webp, lossless: true)),
            FuzzSeed(name: "animation-3.webp", data: try encode(ImageFixtures.animation(frames: 3), as: .webp)),
        ]
    }

    private static func avifSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-20x14.avif", data: try encode(ImageFixtures.gradient(width: 20, height: 14), as: .avif, quality: 0.6)),
            FuzzSeed(name: "translucent-16x9.avif", data: try encode(ImageFixtures.translucentGradient(width: 16, height: 9), as: .avif, quality: 0.6)),
            FuzzSeed(name: "animation-3.avif", data: try encode(ImageFixtures.animation(frames: 3), as: .avif, quality: 0.5)),
        ]
    }

    private static func heifSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-20x14.heic", data: try encode(ImageFixtures.gradient(width: 20, height: 14), as: .heic, quality: 0.6)),
            FuzzSeed(name: "translucent-16x9.heic", data: try encode(ImageFixtures.translucentGradient(width: 16, height: 9), as: .heic, quality: 0.6)),
            FuzzSeed(name: "gradient-64x48-thumbnail.heic", data: try HEIFCoder(embeddedThumbnailSide: 16).encode(
                Image(pixels: ImageFixtures.gradient(width: 64, height: 48)), as: .heic,
                options: ImageEncodingOptions(quality: 0.5))),
        ]
    }

    private static func jxlSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-20x14.jxl", data: try encode(ImageFixtures.gradient(width: 20, height: 14), as: .jpegXL)),
            FuzzSeed(name: "translucent-16x9-lossless.jxl", data: try encode(ImageFixtures.translucentGradient(width: 16, height: 9), as: .jpegXL, lossless: true)),
            FuzzSeed(name: "animation-3.jxl", data: try encode(ImageFixtures.animation(frames: 3), as: .jpegXL)),
        ]
    }

    private static func tiffSeeds() throws -> [FuzzSeed] {
        [
            FuzzSeed(name: "gradient-19x13.tif", data: try encode(ImageFixtures.gradient(width: 19, height: 13), as: .tiff)),
            FuzzSeed(name: "translucent-16x9.tif", data: try encode(ImageFixtures.translucentGradient(width: 16, height: 9), as: .tiff)),
            FuzzSeed(name: "pages-3.tif", data: try encode(ImageFixtures.animation(frames: 3), as: .tiff)),
        ]
    }

    /// Our encoder's three maps, and a hand-written pixmap with comments and a maximum value of 15.
    private static func pnmSeeds() throws -> [FuzzSeed] {
        let coder = PNMCoder()
        let options = ImageEncodingOptions()
        return [
            FuzzSeed(name: "gradient-19x13.ppm", data: try coder.encode(Image(pixels: ImageFixtures.gradient(width: 19, height: 13)), as: .ppm, options: options)),
            FuzzSeed(name: "gradient-11x7.pgm", data: try coder.encode(Image(pixels: ImageFixtures.gradient(width: 11, height: 7)), as: .pgm, options: options)),
            FuzzSeed(
                name: "translucent-16x9.pam",
                data: try coder.encode(Image(pixels: ImageFixtures.translucentGradient(width: 16, height: 9)), as: .pam, options: options)),
            FuzzSeed(name: "commented-2x1.ppm", data: Data("P6 # comment\n2 1\n15\n".utf8) + [15, 0, 5, 0, 15, 10]),
        ]
    }

    private static let svgSeeds: [FuzzSeed] = [
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="12"><rect width="24" height="12" fill="#c03"/></svg>"##,
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 20"><circle cx="5" cy="10" r="4" fill="rgba(0,128,255,0.5)"/></svg>"##,
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="2in" height="1cm"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient></defs><path d="M0 0 L100 20 L20 30 Z" fill="url(#g)"/><text x="2" y="30" font-size="8">Hi</text></svg>"##,
    ].enumerated().map { FuzzSeed(name: "document-\($0.offset).svg", data: Data($0.element.utf8)) }

    /// Profiles made by lcms2: Display P3, sRGB, linear grey and Adobe RGB (1998)'s primaries
    /// with a 2.2 gamma.
    private static var iccSeeds: [FuzzSeed] {
        let adobe = TestColorProfiles.rgbProfile(
            red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06), curve: [2.2], curveType: 1)
        return [
            FuzzSeed(name: "display-p3.icc", data: TestColorProfiles.displayP3.data),
            FuzzSeed(name: "srgb.icc", data: TestColorProfiles.sRGB.data),
            FuzzSeed(name: "linear-gray.icc", data: TestColorProfiles.linearGray.data),
            FuzzSeed(name: "adobe-rgb-like.icc", data: adobe.data),
        ]
    }

    /// EXIF in both byte orders (orientation, copyright, Exif and GPS directories), an XMP packet
    /// and IPTC records, written by hand (``WebImageTesting/MetadataFixtures``).
    private static var metadataSeeds: [FuzzSeed] {
        [
            FuzzSeed(name: "exif-le.tiff", data: MetadataFixtures.exif()),
            FuzzSeed(name: "exif-be.tiff", data: MetadataFixtures.exif(orientation: 8, bigEndian: true)),
            FuzzSeed(name: "packet.xmp", data: MetadataFixtures.xmp()),
            FuzzSeed(name: "records.iptc", data: MetadataFixtures.iptc()),
        ]
    }

    private static let dataURLSeeds: [FuzzSeed] = [
        "data:image/gif;base64,R0lGODlhAQABAAAAACw=",
        "data:,hello%20world",
        "data:text/plain;charset=utf-8;base64,SGk=",
        "data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E",
        "data:;base64,SGVs%20bG8=",
    ].enumerated().map { FuzzSeed(name: "url-\($0.offset).txt", data: Data($0.element.utf8)) }
}
