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
        case .jpegScanSkipDifferential: try Self.progressiveJPEGSeeds()
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

    /// Progressive JPEGs of a detailed picture (every scan carries data): 4:2:0 from our encoder,
    /// plain and with EXIF orientation 6; from cjpeg 4:2:2, 4:4:4, 4:4:0, grey, restart intervals
    /// (every MCU row, every 2 MCUs), odd sizes, and a scan script of its own (DC scans per
    /// component with successive approximation, luma's AC split into bands and refined twice).
    private static func progressiveJPEGSeeds() throws -> [FuzzSeed] {
        func ours(_ width: Int, _ height: Int, orientation: Int? = nil) throws -> Data {
            let metadata = ImageMetadata(exif: orientation.map { MetadataFixtures.exif(orientation: $0) })
            return try seedCoders.encode(
                Image(pixels: ProgressiveFixtures.texture(width: width, height: height), metadata: metadata), as: .jpeg,
                options: ImageEncodingOptions(quality: 0.8, progressive: true, metadataPolicy: .keepAll))
        }
        let scanScript = """
            0: 0 0 0 1; 1: 0 0 0 0; 2: 0 0 0 0;
            0: 1 5 0 2; 0: 6 63 0 2; 1: 1 63 0 1; 2: 1 63 0 1;
            0: 1 63 2 1; 0: 1 63 1 0; 0: 0 0 1 0; 1: 1 63 1 0; 2: 1 63 1 0;
            """
        return [
            FuzzSeed(name: "yuv420-41x29.jpg", data: try ours(41, 29)),
            FuzzSeed(name: "yuv420-exif6-36x20.jpg", data: try ours(36, 20, orientation: 6)),
            FuzzSeed(name: "yuv422-67x35.jpg", data: try cjpeg(67, 35, ["-sample", "2x1"])),
            FuzzSeed(name: "yuv444-48x40.jpg", data: try cjpeg(48, 40, ["-sample", "1x1"])),
            FuzzSeed(name: "yuv440-27x45.jpg", data: try cjpeg(27, 45, ["-sample", "1x2"])),
            FuzzSeed(name: "grey-53x31.jpg", data: try cjpeg(53, 31, ["-grayscale"])),
            FuzzSeed(name: "restart-rows-75x19.jpg", data: try cjpeg(75, 19, ["-restart", "1"])),
            FuzzSeed(name: "restart-blocks-yuv444-33x17.jpg", data: try cjpeg(33, 17, ["-sample", "1x1", "-restart", "2B"])),
            FuzzSeed(name: "scan-script-yuv444-40x24.jpg", data: try cjpeg(40, 24, ["-sample", "1x1"], scans: scanScript)),
        ]
    }

    /// A progressive JPEG of a `width`×`height` texture written by libjpeg-turbo's cjpeg with
    /// `arguments`, and `scans` as its scan script (`-scans`) when given.
    private static func cjpeg(_ width: Int, _ height: Int, _ arguments: [String], scans: String? = nil) throws -> Data {
        guard let tool = ExternalTool.find("cjpeg") else {
            throw WebImageError(.unsupportedFormat, "cjpeg is not installed (scripts/install-system-packages.sh installs it)")
        }
        let ppm = try PNMCoder().encode(
            Image(pixels: ProgressiveFixtures.texture(width: width, height: height)), as: .ppm,
            options: ImageEncodingOptions())
        var options = ["-quality", "85"] + arguments
        var script: URL?
        if let scans {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("scans-\(UUID().uuidString).txt")
            try Data(scans.utf8).write(to: file)
            script = file
            options += ["-scans", file.path]
        } else {
            options.append("-progressive")
        }
        defer { script.map { try? FileManager.default.removeItem(at: $0) } }
        guard let jpeg = ExternalTool.run(tool, options, input: ppm) else {
            throw WebImageError(.encodingFailed, "cjpeg \(options.joined(separator: " ")) failed")
        }
        return jpeg
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
