import ArgumentParser
import WebImageCodecs
import WebImageServer

/// The ranges the tool accepts for its numeric options; anything outside is a usage error (exit 2).
enum OptionLimits {
    /// The most pixels a `--resize` size (and so any transform result) may have: the decoding limit.
    static let maxPixelCount = ImageDecodingOptions.defaultMaxPixelCount
    /// `--concurrency`.
    static let concurrency = 1...256
    /// `--timeout`, in seconds: at most a day.
    static let maxTimeout = 86_400.0
    /// The most `--retries` a download may get.
    static let maxRetries = 10
    /// `--max-age`, in seconds: at most 36500 days (a century).
    static let maxAge = 36_500.0 * 86_400
    /// `--max-disk-size`, in bytes: at most 1 PiB.
    static let maxDiskSize = 1 << 50
    /// `--quality`.
    static let quality = 0...100
    /// `--max-pixels`: up to a gigapixel (4 GB of decoded RGBA).
    static let sourcePixels = 1...1_000_000_000

    /// Throws a usage error unless `value` is a `--concurrency` the tool takes.
    static func checkConcurrency(_ value: Int) throws {
        guard concurrency.contains(value) else {
            throw ValidationError(
                "--concurrency must be between \(concurrency.lowerBound) and \(concurrency.upperBound) (got \(value))")
        }
    }
}

/// A `WIDTHxHEIGHT` argument (e.g. `800x600`). Sides too large for an `Int` saturate, so that
/// validation can say the size is over the limit rather than only "invalid".
struct SizeArgument: ExpressibleByArgument {
    let text: String
    let size: PixelSize

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Self.side(parts[0]), let height = Self.side(parts[1]) else { return nil }
        text = argument
        size = PixelSize(width: width, height: height)
    }

    /// Decimal digits as an `Int`, `Int.max` when they do not fit; nil for anything else.
    private static func side(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits) ?? .max
    }

    /// Throws a usage error unless both sides are positive and the area is within the pixel limit.
    func check(option: String) throws {
        guard size.width > 0, size.height > 0 else {
            throw ValidationError("\(option) \(text): width and height must be at least 1")
        }
        guard size.pixelCount <= OptionLimits.maxPixelCount else {
            let pixels = size.pixelCount == .max ? "more than \(Int.max)" : String(size.pixelCount)
            throw ValidationError(
                "\(option) \(text) asks for \(pixels) pixels, over the limit of \(OptionLimits.maxPixelCount)")
        }
    }
}

/// `--mode` values, named as users of image tools say them.
enum ResizeModeArgument: String, ExpressibleByArgument, CaseIterable {
    case fill, fit, cover

    var mode: ResizeTransformer.Mode {
        switch self {
        case .fill: .fill
        case .fit: .aspectFit
        case .cover: .aspectFill
        }
    }
}

/// Options shared by commands that resize or re-encode.
struct TransformOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Resize to fit WIDTHxHEIGHT (see --mode; never enlarges without --upscale).", valueName: "WxH"))
    var resize: SizeArgument?

    @Option(help: "How --resize places the image: fill (stretch), fit (inside, keeping the aspect ratio), cover (crop).")
    var mode: ResizeModeArgument = .fill

    @Flag(help: "Let --resize enlarge images smaller than the size.")
    var upscale = false

    @Flag(help: "Make the --resize result exactly WIDTHxHEIGHT, centred on transparent margins.")
    var pad = false

    @Option(help: ArgumentHelp("Decode as a thumbnail fitting within N×N, keeping the aspect ratio.", valueName: "N"))
    var thumbnail: Int?

    @Option(help: ArgumentHelp("Encoding quality for lossy formats, 0–100 (default 90; with --preset, 80 as serve's).", valueName: "Q"))
    var quality: Int?

    @Option(help: ArgumentHelp(
        "Quality by output format, e.g. webp=75,avif=55, over --quality (as serve's --format-quality).", valueName: "FORMAT=Q,…"))
    var formatQuality: String?

    @Option(help: ArgumentHelp(
        "Device pixel ratio: multiply the --resize and --thumbnail sizes by X (0 < X ≤ 8; as serve's dpr:X), within the pixel limit.",
        valueName: "X"))
    var dpr: Double?

    @Option(
        help: ArgumentHelp(
            "Keep lossy outputs (JPEG, WebP, AVIF, HEIC, JPEG XL) within BYTES, as serve's mb:: lower quality down to 10, then smaller by steps of 0.75 down to a 16-pixel side (the smallest is written if even that misses). Lossless outputs ignore it.",
            valueName: "BYTES"))
    var maxBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Refuse sources of more than N pixels, read from the header before decoding (default 100000000).",
            valueName: "N"))
    var maxPixels: Int?

    @Option(
        name: [.customLong("colour"), .customLong("color")],
        help: ArgumentHelp(
            "An embedded colour profile: srgb converts the pixels to sRGB (default), keep leaves them and writes the profile into the output (every output format carries an RGB profile; other profiles get sRGB), ignore leaves them and drops it.",
            valueName: "srgb|keep|ignore"))
    var colour: ColourArgument = .srgb

    @Option(
        help: ArgumentHelp(
            "The source's EXIF, XMP and IPTC in re-encoded outputs: strip (default), copyright (copyright and artist only), keep (all but the GPS position), keep-all. Written in JPEG, PNG, WebP, TIFF, AVIF and HEIC; orientation written as 1, dimensions as written.",
            valueName: "strip|copyright|keep|keep-all"))
    var metadata: MetadataArgument = .strip

    @OptionGroup(title: "Transforms (applied in the order given, --resize included)")
    var edits: EditOptions

    @OptionGroup(title: "Watermark (drawn last)")
    var watermark: WatermarkOptions

    func validate() throws {
        try resize?.check(option: "--resize")
        if resize == nil && (upscale || pad) { throw ValidationError("--upscale and --pad only apply with --resize") }
        if let thumbnail, !(1...OptionLimits.maxPixelCount).contains(thumbnail) {
            throw ValidationError(
                "--thumbnail must be between 1 and \(OptionLimits.maxPixelCount) pixels (got \(thumbnail))")
        }
        if let maxPixels, !OptionLimits.sourcePixels.contains(maxPixels) {
            throw ValidationError(
                "--max-pixels must be between \(OptionLimits.sourcePixels.lowerBound) and \(OptionLimits.sourcePixels.upperBound) (got \(maxPixels))")
        }
        if let quality, !OptionLimits.quality.contains(quality) {
            throw ValidationError("--quality must be between 0 and 100 (got \(quality))")
        }
        if let dpr, !(dpr > 0 && dpr <= ProcessingOptions.maxDevicePixelRatio) {
            throw ValidationError("--dpr must be greater than 0 and at most \(Int(ProcessingOptions.maxDevicePixelRatio)) (got \(dpr))")
        }
        _ = try formatQualities()
        if let maxBytes, maxBytes < 1 { throw ValidationError("--max-bytes must be at least 1 (got \(maxBytes))") }
        if resize == nil && edits.filter != nil { throw ValidationError("--filter only applies with --resize") }
        _ = try pipeline(arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// The decode options these arguments ask for.
    func decodingOptions(firstFrameOnly: Bool) -> ImageDecodingOptions {
        var options = ImageDecodingOptions(firstFrameOnly: firstFrameOnly)
        if let thumbnailSide { options.thumbnailPixelSize = PixelSize(width: thumbnailSide, height: thumbnailSide) }
        options.draft = draftsThumbnail
        options.colorPolicy = colour.policy
        options.metadataPolicy = metadata.policy
        if let maxPixels { options.maxPixelCount = maxPixels }
        return options
    }

    /// A `--thumbnail` followed by `--resize` decodes as a draft (a JPEG stops at its DCT scale)
    /// and the resize makes the size: the pixels are resampled once, as `serve` does.
    var draftsThumbnail: Bool { thumbnail != nil && resize != nil }

    /// The transformer for `--resize` and the edits, in command-line order (checked by `validate()`).
    var transformer: (any ImageTransforming)? {
        (try? pipeline(arguments: Array(CommandLine.arguments.dropFirst()))) ?? nil
    }

    /// The steps of `arguments` (the command line) as one transformer: nil without any, the step
    /// itself for one (so a lone `--resize` keeps its cache key), a chain for more.
    func pipeline(arguments: [String], watermarked: Bool = true) throws -> (any ImageTransforming)? {
        let steps = EditOrder.steps(in: arguments)
        var counts = Dictionary(uniqueKeysWithValues: edits.parsedCounts.map { ($0.key.optionName, $0.value) })
        counts["--resize"] = resize == nil ? 0 : 1
        for (option, count) in counts where steps.filter({ $0.option == option }).count != count {
            throw ValidationError("cannot tell the order of \(option) on the command line")
        }
        // The watermark is drawn last, as the service draws wm:, wherever its flags are written.
        let marking = try watermarked ? watermark.transformer() : nil
        let transformers: [any ImageTransforming] = try steps.compactMap { step in
            guard step.option == "--resize", let resize else { return try edits.transformer(for: step) }
            return ResizeTransformer(
                size: scaled(resize.size), mode: mode.mode, allowsUpscaling: upscale, padsToSize: pad,
                filter: edits.filter?.filter ?? .lanczos3, maxPixelCount: OptionLimits.maxPixelCount)
        } + (marking.map { [$0] } ?? [])
        switch transformers.count {
        case 0: return nil
        case 1: return transformers[0]
        default: return ChainedTransformer(transformers)
        }
    }

    var encodingOptions: ImageEncodingOptions {
        ImageEncodingOptions(quality: Double(quality ?? 90) / 100, metadataPolicy: metadata.policy)
    }

    /// `--format-quality`'s table (empty without it); a bad value is a usage error.
    func formatQualities() throws -> [ImageFormat: Int] {
        guard let formatQuality else { return [:] }
        do {
            return try ProcessingOptions.formatQualities(parsing: formatQuality)
        } catch let error as WebImageError {
            throw ValidationError("--format-quality \(formatQuality): \(error.message)")
        }
    }

    /// `size` times `--dpr`, scaled down together to stay within the pixel limit.
    func scaled(_ size: PixelSize) -> PixelSize {
        guard let dpr, dpr != 1 else { return size }
        let limit = (Double(OptionLimits.maxPixelCount) / Double(size.pixelCount)).squareRoot()
        let ratio = min(dpr, limit)
        return PixelSize(width: max(1, Int((Double(size.width) * ratio).rounded())), height: max(1, Int((Double(size.height) * ratio).rounded())))
    }

    /// `--thumbnail` times `--dpr` (within the pixel limit).
    var thumbnailSide: Int? { thumbnail.map { scaled(PixelSize(width: $0, height: $0)).width } }
}

/// `--colour srgb|keep|ignore`.
enum ColourArgument: String, ExpressibleByArgument, CaseIterable {
    case srgb, keep, ignore

    var policy: ColorPolicy { ColorPolicy(rawValue: rawValue) ?? .sRGB }
}

/// `--metadata strip|copyright|keep|keep-all`.
enum MetadataArgument: String, ExpressibleByArgument, CaseIterable {
    case strip, copyright, keep
    case keepAll = "keep-all"

    var policy: MetadataPolicy { MetadataPolicy(rawValue: rawValue) ?? .strip }
}
