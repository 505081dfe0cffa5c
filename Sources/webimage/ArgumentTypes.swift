import ArgumentParser
import WebImageCodecs

/// A `WIDTHxHEIGHT` argument (e.g. `800x600`).
struct SizeArgument: ExpressibleByArgument {
    let size: PixelSize

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        size = PixelSize(width: width, height: height)
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
    @Option(help: ArgumentHelp("Resize to WIDTHxHEIGHT (see --mode).", valueName: "WxH"))
    var resize: SizeArgument?

    @Option(help: "How --resize places the image: fill (stretch), fit (inside, transparent margins), cover (crop).")
    var mode: ResizeModeArgument = .fill

    @Option(help: ArgumentHelp("Decode as a thumbnail fitting within N×N, keeping the aspect ratio.", valueName: "N"))
    var thumbnail: Int?

    @Option(help: ArgumentHelp("Encoding quality for lossy formats, 0–100.", valueName: "Q"))
    var quality: Int = 90

    func validate() throws {
        if let thumbnail, thumbnail <= 0 { throw ValidationError("--thumbnail must be a positive number of pixels") }
        guard (0...100).contains(quality) else { throw ValidationError("--quality must be between 0 and 100") }
    }

    /// The decode options these arguments ask for.
    func decodingOptions(firstFrameOnly: Bool) -> ImageDecodingOptions {
        var options = ImageDecodingOptions(firstFrameOnly: firstFrameOnly)
        if let thumbnail { options.thumbnailPixelSize = PixelSize(width: thumbnail, height: thumbnail) }
        return options
    }

    /// The transformer for `--resize`, if any.
    var transformer: (any ImageTransforming)? {
        resize.map { ResizeTransformer(size: $0.size, mode: mode.mode) }
    }

    var encodingOptions: ImageEncodingOptions { ImageEncodingOptions(quality: Double(quality) / 100) }
}
