import ArgumentParser
import WebImageCodecs

/// The pixel edits `fetch` and `convert` apply, in the order they are given on the command line
/// (together with `--resize`): one pipeline, one cache key.
struct EditOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Rotate clockwise by DEG degrees (multiples of 90 are exact; others grow the canvas).", valueName: "DEG"))
    var rotate: [NumberArgument] = []

    @Option(help: ArgumentHelp("Mirror: h (left–right), v (top–bottom) or hv.", valueName: "h|v|hv"))
    var flip: [FlipArgument] = []

    @Option(help: ArgumentHelp("Gaussian blur of standard deviation SIGMA pixels (0–2000).", valueName: "SIGMA"))
    var blur: [NumberArgument] = []

    @Flag(help: "Sharpen (unsharp mask: sigma 1, amount 1).")
    var sharpen: Int

    @Option(
        name: .customLong("round-corner"),
        help: ArgumentHelp("Round the corners with radius R, optionally a border BORDER px wide in COLOR.", valueName: "R[:BORDER:COLOR]"))
    var roundCorner: [RoundCornerArgument] = []

    @Flag(help: "Cut the centred square as a circle.")
    var circle: Int

    @Option(help: ArgumentHelp("Tint with COLOR (#rgb, #rrggbb, #rrggbbaa or a name), blend MODE normal|multiply|screen|overlay|darken|lighten.", valueName: "COLOR[:MODE]"))
    var tint: [TintArgument] = []

    @Flag(help: "Convert to greyscale.")
    var grayscale: Int

    @Flag(help: "Sepia tone.")
    var sepia: Int

    @Option(help: ArgumentHelp("Crop to WxH placed by --gravity, or to WxH at offset +X+Y.", valueName: "WxH[+X+Y]"))
    var crop: [CropArgument] = []

    @Option(help: ArgumentHelp("Where --crop WxH goes: \(GravityArgument.allNames.joined(separator: "|")) (default center).", valueName: "GRAVITY"))
    var gravity: GravityArgument?

    @Option(help: "The --resize kernel: lanczos (default), mitchell, bilinear, nearest.")
    var filter: FilterArgument?

    func validate() throws {
        for sigma in blur where !(0...2000).contains(sigma.value) {
            throw ValidationError("--blur must be between 0 and 2000 (got \(sigma.value))")
        }
        for crop in crop { try crop.size.check(option: "--crop") }
        if gravity != nil && !crop.contains(where: { $0.offset == nil }) {
            throw ValidationError("--gravity only applies with --crop WxH (without +X+Y)")
        }
    }

    /// How many steps of each kind were parsed, by option name (to check the order scan).
    var parsedCounts: [String: Int] {
        [
            "--rotate": rotate.count, "--flip": flip.count, "--blur": blur.count, "--sharpen": sharpen,
            "--round-corner": roundCorner.count, "--circle": circle, "--tint": tint.count,
            "--grayscale": grayscale, "--sepia": sepia, "--crop": crop.count,
        ]
    }

    /// The transformer one step of the command line stands for.
    func transformer(for step: EditOrder.Step) throws -> any ImageTransforming {
        func parsed<T: ExpressibleByArgument>(_ type: T.Type) throws -> T {
            guard let value = step.value.flatMap(T.init(argument:)) else {
                throw ValidationError("\(step.option): cannot read '\(step.value ?? "")'")
            }
            return value
        }
        switch step.option {
        case "--rotate": return RotateTransformer(degrees: try parsed(NumberArgument.self).value)
        case "--flip": return try parsed(FlipArgument.self).transformer
        case "--blur": return GaussianBlurTransformer(sigma: try parsed(NumberArgument.self).value)
        case "--sharpen": return SharpenTransformer()
        case "--round-corner": return try parsed(RoundCornerArgument.self).transformer
        case "--circle": return RoundCornerTransformer.circle()
        case "--tint": return try parsed(TintArgument.self).transformer
        case "--grayscale": return ColorMatrixTransformer.grayscale()
        case "--sepia": return ColorMatrixTransformer.sepia()
        case "--crop":
            let crop = try parsed(CropArgument.self)
            if let offset = crop.offset {
                return CropTransformer(
                    rect: PixelRect(x: offset.x, y: offset.y, width: crop.size.size.width, height: crop.size.size.height))
            }
            return GravityCropTransformer(size: crop.size.size, anchor: gravity?.anchor ?? .gravity(.center))
        default:
            throw ValidationError("\(step.option) is not a transform option")
        }
    }
}

/// The order of the transform options on the command line.
///
/// ArgumentParser keeps each option's values in order but not the order across options, so the raw
/// arguments are scanned: every `--name VALUE`, `--name=VALUE` or flag of the transform options,
/// up to a `--` terminator. The scan is then checked against what ArgumentParser parsed (the same
/// count of each option), so the two can never disagree silently.
enum EditOrder {
    /// One transform option as written.
    struct Step: Equatable {
        var option: String
        var value: String?
    }

    /// Transform options that take a value.
    static let valued: Set<String> = ["--rotate", "--flip", "--blur", "--round-corner", "--tint", "--crop", "--resize"]
    /// Transform options that are flags.
    static let flags: Set<String> = ["--sharpen", "--circle", "--grayscale", "--sepia"]

    /// The transform steps in `arguments` (a command line without the program name), in order.
    static func steps(in arguments: [String]) -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            if flags.contains(name) {
                steps.append(Step(option: name, value: nil))
            } else if valued.contains(name) {
                if parts.count == 2 {
                    steps.append(Step(option: name, value: parts[1]))
                } else if index < arguments.count {
                    steps.append(Step(option: name, value: arguments[index]))
                    index += 1
                }
            }
        }
        return steps
    }
}
