import WebImage

extension ProcessingOptions {
    /// Parses option segments (`name:arg:arg`, as in the URL path) in order; an unknown name, a
    /// missing or bad argument, or a size over `maxDimension` throws ``WebImage/WebImageError``
    /// code ``WebImage/WebImageError/Code/invalidProcessingOptions`` (size: `tooLarge`) naming it.
    ///
    /// ```swift
    /// let options = try ProcessingOptions(segments: ["rs:fill:256:256", "q:70", "f:webp"])
    /// ```
    public init(segments: [Substring], maxDimension: Int = 8192) throws {
        self.init()
        for segment in segments {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
            var reader = OptionArguments(name: String(parts[0]), arguments: Array(parts.dropFirst()))
            try apply(&reader)
            try reader.finish()
        }
        for (value, name) in [(width, "width"), (height, "height"), (crop?.width ?? 0, "crop width"), (crop?.height ?? 0, "crop height")]
        where value > maxDimension {
            throw WebImageError(.tooLarge, "\(name) \(value) is over the limit of \(maxDimension) pixels")
        }
    }

    private mutating func apply(_ reader: inout OptionArguments) throws {
        switch reader.name {
        case "rs", "resize":
            if let type = try reader.optionalText() { resizingType = try Self.resizingType(type) }
            try readSize(&reader)
            if let flag = try reader.optionalBool() { enlarge = flag }
        case "s", "size":
            try readSize(&reader)
            if let flag = try reader.optionalBool() { enlarge = flag }
        case "rt", "resizing_type": resizingType = try Self.resizingType(try reader.text())
        case "w", "width": width = try reader.dimension()
        case "h", "height": height = try reader.dimension()
        case "el", "enlarge": enlarge = try reader.bool()
        case "pd", "pad": pad = try reader.bool()
        case "g", "gravity": gravity = try Self.anchor(try reader.text())
        case "c", "crop":
            let cropWidth = try reader.dimension()
            let cropHeight = try reader.dimension()
            let anchor = try reader.optionalText().map(Self.anchor)
            guard cropWidth > 0 || cropHeight > 0 else { throw reader.bad("needs a width or a height above 0") }
            crop = Crop(width: cropWidth, height: cropHeight, gravity: anchor)
        case "fi", "filter": filter = try Self.filter(try reader.text())
        case "q", "quality":
            let value = try reader.integer()
            guard (1...100).contains(value) else { throw reader.bad("must be 1–100") }
            quality = value
        case "f", "format", "ext":
            let name = try reader.text()
            if name == "auto" {
                format = .auto
            } else {
                guard let named = ImageFormat(fileExtension: name) else { throw reader.bad("unknown format '\(name)'") }
                format = .explicit(named)
            }
        case "bg", "background": background = try reader.color()
        case "rot", "rotate":
            let degrees = try reader.number()
            guard abs(degrees) <= 3600 else { throw reader.bad("must be within ±3600 degrees") }
            rotate = degrees
        case "fl", "flip": try readFlip(&reader)
        case "bl", "blur": effects.append(.blur(sigma: try reader.number(in: 0...2000)))
        case "sh", "sharpen": effects.append(.sharpen(sigma: try reader.number(in: 0.1...100)))
        case "rc", "round_corner":
            let radius = try reader.number(in: 0...100_000)
            let border = try reader.optionalNumber(in: 0...10_000) ?? 0
            effects.append(.roundCorner(radius: radius, border: border, color: try reader.optionalColor() ?? .black))
        case "ci", "circle":
            guard try reader.bool() else { return }
            let border = try reader.optionalNumber(in: 0...10_000) ?? 0
            effects.append(.circle(border: border, color: try reader.optionalColor() ?? .black))
        case "tn", "tint":
            let color = try reader.color()
            var mode = TintTransformer.BlendMode.normal
            if let name = try reader.optionalText() {
                guard let named = TintTransformer.BlendMode(rawValue: name) else {
                    throw reader.bad("unknown blend mode '\(name)' (\(TintTransformer.BlendMode.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                mode = named
            }
            effects.append(.tint(color, mode))
        case "gs", "grayscale": effects.append(.grayscale(try reader.optionalNumber(in: 0...1) ?? 1))
        case "sp", "sepia": effects.append(.sepia(try reader.optionalNumber(in: 0...1) ?? 1))
        case "iv", "invert": effects.append(.invert(try reader.optionalNumber(in: 0...1) ?? 1))
        case "br", "brightness": effects.append(.brightness(try reader.number(in: 0...10)))
        case "co", "contrast": effects.append(.contrast(try reader.number(in: 0...10)))
        case "sa", "saturation": effects.append(.saturation(try reader.number(in: 0...10)))
        default:
            throw WebImageError(.invalidProcessingOptions, "unknown option '\(reader.name)'")
        }
    }

    private mutating func readSize(_ reader: inout OptionArguments) throws {
        if let value = try reader.optionalDimension() { width = value }
        if let value = try reader.optionalDimension() { height = value }
    }

    /// `fl:h`, `fl:v`, `fl:hv`, or imgproxy's `fl:HORIZONTAL:VERTICAL` booleans.
    private mutating func readFlip(_ reader: inout OptionArguments) throws {
        let first = try reader.text()
        switch first {
        case "h": (flipHorizontal, flipVertical) = (true, false)
        case "v": (flipHorizontal, flipVertical) = (false, true)
        case "hv", "vh": (flipHorizontal, flipVertical) = (true, true)
        default:
            guard let horizontal = OptionArguments.boolValue(first) else { throw reader.bad("must be h, v, hv or two booleans") }
            flipHorizontal = horizontal
            flipVertical = try reader.optionalBool() ?? false
        }
    }

    static func resizingType(_ text: String) throws -> ResizingType {
        guard let type = ResizingType(rawValue: text) else {
            throw WebImageError(
                .invalidProcessingOptions,
                "unknown resizing type '\(text)' (\(ResizingType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return type
    }

    /// imgproxy's gravity names and ours: `ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`,
    /// `sowe`, `sm` (attention), or `center`, `north`, …, `attention`.
    static func anchor(_ text: String) throws -> GravityCropTransformer.Anchor {
        let short: [String: ImageGravity] = [
            "ce": .center, "no": .north, "so": .south, "ea": .east, "we": .west,
            "noea": .northEast, "nowe": .northWest, "soea": .southEast, "sowe": .southWest,
        ]
        if text == "sm" || text == "attention" { return .attention }
        if let gravity = short[text] ?? ImageGravity.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            return .gravity(gravity)
        }
        throw WebImageError(.invalidProcessingOptions, "unknown gravity '\(text)'")
    }

    static func filter(_ text: String) throws -> Resampler.Filter {
        switch text {
        case "lanczos", "lanczos3": return .lanczos3
        case "mitchell": return .mitchell
        case "bilinear", "linear": return .bilinear
        case "nearest": return .nearest
        default: throw WebImageError(.invalidProcessingOptions, "unknown filter '\(text)' (lanczos, mitchell, bilinear, nearest)")
        }
    }
}

/// The arguments of one option segment, read left to right with typed errors naming the option.
struct OptionArguments {
    let name: String
    var arguments: [Substring]
    private var index = 0

    init(name: String, arguments: [Substring]) {
        self.name = name
        self.arguments = arguments
    }

    func bad(_ reason: String) -> WebImageError {
        WebImageError(.invalidProcessingOptions, "option '\(name)': \(reason)")
    }

    /// Throws when arguments are left over.
    func finish() throws {
        if index < arguments.count { throw bad("too many arguments (\(arguments.count))") }
    }

    /// The next argument if present and not empty (an empty one is skipped, as imgproxy does).
    mutating func optionalText() throws -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        let value = arguments[index]
        return value.isEmpty ? nil : String(value)
    }

    mutating func text() throws -> String {
        guard let value = try optionalText() else { throw bad("missing argument \(index)") }
        return value
    }

    mutating func optionalDimension() throws -> Int? {
        guard let text = try optionalText() else { return nil }
        guard let value = Int(text), value >= 0 else { throw bad("'\(text)' is not a size in pixels") }
        return value
    }

    mutating func dimension() throws -> Int {
        guard let value = try optionalDimension() else { throw bad("missing size") }
        return value
    }

    mutating func integer() throws -> Int {
        let text = try text()
        guard let value = Int(text) else { throw bad("'\(text)' is not an integer") }
        return value
    }

    mutating func optionalNumber(in range: ClosedRange<Double>) throws -> Double? {
        guard let text = try optionalText() else { return nil }
        guard let value = Double(text), value.isFinite else { throw bad("'\(text)' is not a number") }
        guard range.contains(value) else { throw bad("\(text) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    mutating func number(in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws -> Double {
        guard let value = try optionalNumber(in: range) else { throw bad("missing number") }
        return value
    }

    static func boolValue(_ text: String) -> Bool? {
        switch text {
        case "1", "t", "true": true
        case "0", "f", "false": false
        default: nil
        }
    }

    mutating func optionalBool() throws -> Bool? {
        guard let text = try optionalText() else { return nil }
        guard let value = Self.boolValue(text) else { throw bad("'\(text)' is not a boolean (1, 0, true, false)") }
        return value
    }

    mutating func bool() throws -> Bool {
        guard let value = try optionalBool() else { throw bad("missing boolean") }
        return value
    }

    /// `RRGGBB`, `RRGGBBAA`, `RGB` hex, a colour name, or imgproxy's `R:G:B` decimal triple.
    mutating func optionalColor() throws -> RGBA8? {
        guard let text = try optionalText() else { return nil }
        if let named = ServerColor.parse(text) { return named }
        guard let red = UInt8(text) else { throw bad("'\(text)' is not a colour (hex, a name, or R:G:B)") }
        guard let green = try optionalText().flatMap({ UInt8($0) }), let blue = try optionalText().flatMap({ UInt8($0) }) else {
            throw bad("a decimal colour needs R:G:B, each 0–255")
        }
        return RGBA8(r: red, g: green, b: blue)
    }

    mutating func color() throws -> RGBA8 {
        guard let value = try optionalColor() else { throw bad("missing colour") }
        return value
    }
}

/// Colours in URLs: hex (`rgb`, `rrggbb`, `rrggbbaa`, with or without `#`/`%23`) or a CSS basic name.
enum ServerColor {
    static func parse(_ text: String) -> RGBA8? {
        let written = text.lowercased().hasPrefix("%23") ? "#" + text.dropFirst(3) : text
        // A bare decimal like "255" is the first of R:G:B, not hex.
        if written.count == 3, written.allSatisfy(\.isNumber) { return nil }
        return RGBA8(parsing: written)
    }
}
