import ArgumentParser
import WebImageCodecs

/// The pixel edits `fetch` and `convert` apply, in the order they are given on the command line
/// (together with `--resize`): one pipeline, one cache key.
///
/// The options are declared here for their help and so that ArgumentParser knows them; their
/// values are read, checked and turned into transformers by the core's `Edit` (the grammar the
/// service's URL options share), in the order ``EditOrder`` recovers.
struct EditOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Rotate clockwise by DEG degrees, within ±3600 (multiples of 90 are exact; others grow the canvas).", valueName: "DEG"))
    var rotate: [String] = []

    @Option(help: ArgumentHelp("Mirror: h (left–right), v (top–bottom) or hv.", valueName: "h|v|hv"))
    var flip: [String] = []

    @Option(help: ArgumentHelp("Gaussian blur of standard deviation SIGMA pixels (0–2000).", valueName: "SIGMA"))
    var blur: [String] = []

    @Flag(help: "Sharpen (unsharp mask: sigma 1, amount 1).")
    var sharpen: Int

    @Option(
        name: .customLong("round-corner"),
        help: ArgumentHelp("Round the corners with radius R, optionally a border BORDER px wide (in COLOR, default black).", valueName: "R[:BORDER[:COLOR]]"))
    var roundCorner: [String] = []

    @Flag(help: "Cut the centred square as a circle.")
    var circle: Int

    @Option(help: ArgumentHelp("Tint with COLOR (#rgb, #rrggbb, #rrggbbaa, a name or R:G:B), blend MODE normal|multiply|screen|overlay|darken|lighten.", valueName: "COLOR[:MODE]"))
    var tint: [String] = []

    @Flag(help: "Convert to greyscale.")
    var grayscale: Int

    @Flag(help: "Sepia tone.")
    var sepia: Int

    @Option(help: ArgumentHelp("Scale the brightness by FACTOR (0–10; 1 keeps it).", valueName: "FACTOR"))
    var brightness: [String] = []

    @Option(help: ArgumentHelp("Scale the contrast by FACTOR (0–10; 1 keeps it).", valueName: "FACTOR"))
    var contrast: [String] = []

    @Option(help: ArgumentHelp("Scale the saturation by FACTOR (0–10; 1 keeps it, 0 is grey).", valueName: "FACTOR"))
    var saturation: [String] = []

    @Flag(help: "Invert the colours.")
    var invert: Int

    @Option(help: ArgumentHelp("Crop to WxH placed by --gravity, or to WxH at offset +X+Y (or W:H[:GRAVITY], 0 keeping a side whole).", valueName: "WxH[+X+Y]"))
    var crop: [String] = []

    @Option(help: ArgumentHelp("Where --crop WxH goes: \(GravityArgument.allNames.joined(separator: "|")) (default center).", valueName: "GRAVITY"))
    var gravity: GravityArgument?

    @Option(help: "The --resize kernel: lanczos (default), mitchell, bilinear, nearest.")
    var filter: FilterArgument?

    func validate() throws {
        let crops = try crop.compactMap { value -> Edit.Crop? in
            guard case .crop(let region)? = try Self.edit(EditOrder.Step(option: "--crop", value: value)) else { return nil }
            return region
        }
        for region in crops where region.width > 0 && region.height > 0 {
            let size = PixelSize(width: region.width, height: region.height)
            guard size.pixelCount <= OptionLimits.maxPixelCount else {
                throw ValidationError("--crop asks for \(size.pixelCount) pixels, over the limit of \(OptionLimits.maxPixelCount)")
            }
        }
        if gravity != nil && !crops.contains(where: { $0.origin == nil }) {
            throw ValidationError("--gravity only applies with --crop WxH (without +X+Y)")
        }
    }

    /// How many steps of each kind ArgumentParser parsed (to check the order scan).
    var parsedCounts: [Edit.Kind: Int] {
        [
            .rotate: rotate.count, .flip: flip.count, .blur: blur.count, .sharpen: sharpen,
            .roundCorner: roundCorner.count, .circle: circle, .tint: tint.count, .grayscale: grayscale,
            .sepia: sepia, .brightness: brightness.count, .contrast: contrast.count,
            .saturation: saturation.count, .invert: invert, .crop: crop.count,
        ]
    }

    /// The edit one step of the command line stands for (nil if it switches itself off); a bad
    /// value is a usage error naming the option.
    static func edit(_ step: EditOrder.Step) throws -> Edit? {
        do {
            return try Edit(option: step.option, value: step.value)
        } catch let error as WebImageError {
            throw ValidationError(error.message)
        }
    }

    /// The transformer one edit step of the command line stands for: a crop without an offset or
    /// a gravity of its own is placed by `--gravity`.
    func transformer(for step: EditOrder.Step) throws -> (any ImageTransforming)? {
        guard var edit = try Self.edit(step) else { return nil }
        if case .crop(var region) = edit, region.origin == nil, region.gravity == nil {
            region.gravity = gravity?.anchor
            edit = .crop(region)
        }
        return edit.transformer(maxPixelCount: OptionLimits.maxPixelCount)
    }
}

/// The order of the transform options on the command line.
///
/// ArgumentParser keeps each option's values in order but not the order across options, so the raw
/// arguments are scanned: every `--name VALUE`, `--name=VALUE` or flag of the transform options
/// (`--resize` and every `Edit.Kind`'s option), up to a `--` terminator. The scan is then checked
/// against what ArgumentParser parsed (the same count of each option), so the two can never
/// disagree silently.
enum EditOrder {
    /// One transform option as written.
    struct Step: Equatable {
        var option: String
        var value: String?
    }

    /// Transform options that take a value.
    static let valued: Set<String> = Set(Edit.Kind.allCases.filter { !$0.isFlag }.map(\.optionName) + ["--resize"])
    /// Transform options that are flags.
    static let flags: Set<String> = Set(Edit.Kind.allCases.filter(\.isFlag).map(\.optionName))

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
