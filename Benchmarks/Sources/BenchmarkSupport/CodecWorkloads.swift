public import Foundation
public import WebImageCodecs

/// The codec operations benchmarked, shared by the package-benchmark suite and by
/// `webimage-bench` (which `compare.sh` runs beside tjbench, Pillow and vipsthumbnail).
public enum CodecWorkload: String, CaseIterable, Sendable {
    case jpegDecode = "jpeg-decode"
    /// A JPEG decode whose bitmap goes back to `PixelStoragePool.shared` when done (as a server
    /// that has encoded its thumbnail does): every decode after the first writes warm memory, as
    /// tjbench's reused output buffer does.
    case jpegDecodePooled = "jpeg-decode-pooled"
    case jpegThumbnail = "jpeg-thumbnail"
    case pngDecode = "png-decode"
    case pngEncode = "png-encode"
    case webpDecode = "webp-decode"
    case webpEncode = "webp-encode"
    // JPEG XL and TIFF (issue 13): decodes read a file our encoder made from the photo.
    case jxlDecode = "jxl-decode"
    case jxlEncode = "jxl-encode"
    case jxlEncodeLossless = "jxl-encode-lossless"
    case tiffDecode = "tiff-decode"
    case tiffEncode = "tiff-encode"
    // AVIF and HEIC (issue 13): avif-heic-compare.sh passes files made by avifenc and heif-enc.
    case avifDecode = "avif-decode"
    case avifEncode = "avif-encode"
    case heicDecode = "heic-decode"
    case heicEncode = "heic-encode"
    // The pixel kernels (issue 14): Lanczos3 to a quarter of each side of a decoded image, as one
    // exact pass and with the default reducing gap; a PNG thumbnail (decode, then the resampler).
    case resampleLanczos = "resample-lanczos"
    case resampleLanczosGap = "resample-lanczos-gap"
    /// The exact pass with each filter pass's rows split across two threads (`parallelism: 2`).
    case resampleLanczosTwoThreads = "resample-lanczos-2threads"
    case pngThumbnail = "png-thumbnail"
    // The blur at the machine's vector width (issue 29): GaussianBlurTransformer on the same
    // decoded image, σ 10 (three box passes per axis) and σ 2 (a sampled Gaussian kernel).
    case blurSigma10 = "blur-sigma10"
    case blurSigma2 = "blur-sigma2"

    /// The corpus file each workload reads (relative to the corpus's public/ folder).
    public var corpusFile: String {
        switch self {
        case .jpegDecode, .jpegDecodePooled, .jpegThumbnail: "deb-lomiri-wallpapers-16.04/seeding_by_Clements_Engelhardt.jpg"
        case .resampleLanczos, .resampleLanczosGap, .resampleLanczosTwoThreads, .blurSigma10, .blurSigma2:
            "deb-lomiri-wallpapers-16.04/seeding_by_Clements_Engelhardt.jpg"
        case .pngDecode, .pngEncode, .pngThumbnail: "image-png/benches/Fantasy_Digital_Painting.png"
        case .webpDecode: "deb-gnome-backgrounds/adwaita-l.webp"
        case .webpEncode: "deb-mate-backgrounds/nature/YellowFlower.jpg"
        case .jxlDecode, .jxlEncode, .jxlEncodeLossless, .tiffDecode, .tiffEncode, .avifEncode, .heicEncode:
            "deb-mate-backgrounds/nature/YellowFlower.jpg"
        // The corpus's largest AVIF; avif-heic-compare.sh passes a 4 MP file made by avifenc instead.
        case .avifDecode: "pillow/avif/exif.avif"
        // No HEIC in the corpus: avif-heic-compare.sh passes a file made by heif-enc.
        case .heicDecode: "deb-mate-backgrounds/nature/YellowFlower.jpg"
        }
    }

    /// Prepared input: encoded bytes for decodes, a decoded image for encodes.
    public struct Input: Sendable {
        public let data: Data
        public let image: Image?
    }

    public func prepare(file: URL) throws -> Input {
        let data = try Data(contentsOf: file)
        switch self {
        case .pngEncode, .webpEncode, .jxlEncode, .jxlEncodeLossless, .tiffEncode, .avifEncode, .heicEncode,
            .resampleLanczos, .resampleLanczosGap, .resampleLanczosTwoThreads, .blurSigma10, .blurSigma2:
            return Input(data: data, image: try Self.coders.decode(data))
        case .jxlDecode, .tiffDecode:
            return Input(data: try encodedInput(data), image: nil)
        default:
            return Input(data: data, image: nil)
        }
    }

    /// Runs the workload once; returns a value derived from the output so it cannot be optimised away.
    @discardableResult
    public func run(_ input: Input) throws -> Int {
        switch self {
        case .jpegDecode, .pngDecode, .webpDecode, .jxlDecode, .tiffDecode, .avifDecode, .heicDecode:
            return try Self.coders.decode(input.data).pixelSize.width
        case .jpegDecodePooled:
            let image = try Self.coders.decode(input.data)
            defer { PixelStoragePool.shared.recycle(image.pixels) }
            return image.pixelSize.width
        case .jpegThumbnail:
            var options = ImageDecodingOptions()
            options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
            return try Self.coders.decode(input.data, options: options).pixelSize.width
        case .pngThumbnail:
            var options = ImageDecodingOptions()
            options.thumbnailPixelSize = PixelSize(width: 256, height: 256)
            return try Self.coders.decode(input.data, options: options).pixelSize.width
        case .resampleLanczos, .resampleLanczosGap:
            let pixels = input.image!.pixels
            let quarter = PixelSize(width: pixels.width / 4, height: pixels.height / 4)
            let gap = self == .resampleLanczos ? nil : Resampler.defaultReducingGap
            // The decoded JPEG knows it is opaque, as Pillow knows an RGB image is.
            let opaque = !input.image!.hasAlpha
            return Resampler.resample(pixels, to: quarter, reducingGap: gap, knownOpaque: opaque).width
        case .resampleLanczosTwoThreads:
            let pixels = input.image!.pixels
            let quarter = PixelSize(width: pixels.width / 4, height: pixels.height / 4)
            return Resampler.resample(pixels, to: quarter, reducingGap: nil, parallelism: 2).width
        case .blurSigma10, .blurSigma2:
            return try GaussianBlurTransformer(sigma: self == .blurSigma10 ? 10 : 2).transform(input.image!).pixelSize.width
        case .pngEncode:
            return try Self.coders.encode(input.image!, as: .png, options: .init(compressionLevel: 6)).count
        case .webpEncode:
            return try Self.coders.encode(input.image!, as: .webp, options: .init(quality: 0.8)).count
        case .jxlEncode:  // distance 1.0, cjxl's default
            return try Self.coders.encode(input.image!, as: .jpegXL, options: .init(quality: 0.9)).count
        case .jxlEncodeLossless:
            return try Self.coders.encode(input.image!, as: .jpegXL, options: .init(lossless: true)).count
        case .tiffEncode:
            return try Self.coders.encode(input.image!, as: .tiff, options: .init(compressionLevel: 6)).count
        case .avifEncode:
            // Quality 0.6 is quantizer 25 (avifenc --min 25 --max 25), speed 6 is avifenc's default.
            return try Self.coders.encode(input.image!, as: .avif, options: .init(quality: 0.6, speed: 6)).count
        case .heicEncode:
            // heif-enc -q 60, libheif's default x265 preset.
            return try Self.coders.encode(input.image!, as: .heic, options: .init(quality: 0.6)).count
        }
    }

    /// The bytes a decode workload reads, made by our encoder from the corpus file: JPEG XL at
    /// distance 1.0, or deflate TIFF. `webimage-bench prepare` writes them for the anchors.
    public func encodedInput(_ source: Data) throws -> Data {
        let image = try Self.coders.decode(source)
        switch self {
        case .jxlDecode: return try Self.coders.encode(image, as: .jpegXL, options: .init(quality: 0.9))
        case .tiffDecode: return try Self.coders.encode(image, as: .tiff, options: .init(compressionLevel: 6))
        default: return source
        }
    }

    static let coders = ImageCodersManager.standard()

    /// The corpus folder: `$WEBIMAGE_CORPUS`, else ../shared/corpus/public beside the repository.
    public static var corpusDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["WEBIMAGE_CORPUS"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/public")
    }
}
