extension Edit {
    /// Parses one URL segment, `name:arg:arg` (`bl:2`, `round_corner:12:2:ff0000`); nil when the
    /// segment switches its step off (`ci:0`). An unknown name, a missing, malformed or extra
    /// argument, or a value out of range throws ``WebImageError`` code
    /// ``WebImageError/Code/invalidProcessingOptions`` naming the option.
    ///
    /// A canonical ``key`` parses back to the same edit.
    ///
    /// ```swift
    /// let blur = try Edit(parsing: "bl:2")      // .blur(sigma: 2)
    /// ```
    public init?(parsing segment: some StringProtocol) throws {
        var reader = OptionArguments(segment: segment)
        guard let kind = Kind(named: reader.name) else {
            throw WebImageError(.invalidProcessingOptions, "unknown option '\(reader.name)'")
        }
        guard let edit = try Self.parse(kind, arguments: &reader) else { return nil }
        self = edit
    }

    /// Parses a command-line option and its value (nil for a flag): `--round-corner` `12:2:white`.
    /// The value has the same `:`-separated grammar as the URL's arguments; errors are as for
    /// ``init(parsing:)``, naming the option.
    ///
    /// ```swift
    /// let tint = try Edit(option: "--tint", value: "#ff8000:multiply")
    /// ```
    public init?(option: String, value: String?) throws {
        var reader = OptionArguments(option: option, value: value)
        guard let kind = Kind(option: option) else {
            throw WebImageError(.invalidProcessingOptions, "unknown option '\(option)'")
        }
        guard let edit = try Self.parse(kind, arguments: &reader) else { return nil }
        self = edit
    }

    /// Reads the arguments of a `kind` step from `arguments`, all of them (extra ones throw); nil
    /// when they switch the step off.
    public static func parse(_ kind: Kind, arguments reader: inout OptionArguments) throws -> Edit? {
        let edit: Edit?
        switch kind {
        case .blur: edit = .blur(sigma: try reader.number(in: 0...2000))
        case .sharpen: edit = .sharpen(sigma: try reader.optionalNumber(in: 0.1...100) ?? 1)
        case .roundCorner:
            let radius = try reader.number(in: 0...100_000)
            let border = try reader.optionalNumber(in: 0...10_000) ?? 0
            edit = .roundCorner(radius: radius, border: border, color: try reader.optionalColor() ?? .black)
        case .circle:
            // `ci:1:BORDER:COLOR` as imgproxy writes it; the key's `ci:BORDER:COLOR` without the switch.
            if reader.nextIsBool(), !(try reader.bool()) {
                edit = nil
            } else {
                let border = try reader.optionalNumber(in: 0...10_000) ?? 0
                edit = .circle(border: border, color: try reader.optionalColor() ?? .black)
            }
        case .tint:
            let color = try reader.color()
            var mode = TintTransformer.BlendMode.normal
            if let name = reader.optionalText() {
                guard let named = TintTransformer.BlendMode(rawValue: name) else {
                    let modes = TintTransformer.BlendMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw reader.bad("unknown blend mode '\(name)' (\(modes))")
                }
                mode = named
            }
            edit = .tint(color, mode)
        case .grayscale: edit = .grayscale(try reader.optionalNumber(in: 0...1) ?? 1)
        case .sepia: edit = .sepia(try reader.optionalNumber(in: 0...1) ?? 1)
        case .invert: edit = .invert(try reader.optionalNumber(in: 0...1) ?? 1)
        case .brightness: edit = .brightness(try reader.number(in: 0...10))
        case .contrast: edit = .contrast(try reader.number(in: 0...10))
        case .saturation: edit = .saturation(try reader.number(in: 0...10))
        case .rotate: edit = .rotate(degrees: try reader.number(in: -3600...3600))
        case .flip: edit = try parseFlip(&reader)
        case .crop: edit = .crop(try Crop.parse(&reader))
        }
        try reader.finish()
        return edit
    }

    /// `h`, `v`, `hv`, `vh`, or imgproxy's `HORIZONTAL[:VERTICAL]` booleans.
    private static func parseFlip(_ reader: inout OptionArguments) throws -> Edit {
        let first = try reader.text()
        switch first {
        case "h": return .flip(horizontal: true, vertical: false)
        case "v": return .flip(horizontal: false, vertical: true)
        case "hv", "vh": return .flip(horizontal: true, vertical: true)
        default:
            guard let horizontal = OptionArguments.boolValue(first) else { throw reader.bad("must be h, v, hv or two booleans") }
            return .flip(horizontal: horizontal, vertical: try reader.optionalBool() ?? false)
        }
    }
}

extension Edit.Crop {
    /// `W:H[:GRAVITY]` (a side of 0 keeps that side whole; `-` or nothing for the default
    /// gravity), or `WxH[+X+Y]` in one argument (a size placed by the default gravity, or at an
    /// offset).
    static func parse(_ reader: inout OptionArguments) throws -> Edit.Crop {
        if reader.arguments.count == 1, reader.arguments[0].lowercased().contains("x") {
            return try parseCompact(try reader.text(), reader: reader)
        }
        let width = try reader.dimension()
        let height = try reader.dimension()
        var gravity: GravityCropTransformer.Anchor?
        if let text = reader.optionalText(), text != "-" {
            guard let anchor = GravityCropTransformer.Anchor(parsing: text) else { throw reader.bad("unknown gravity '\(text)'") }
            gravity = anchor
        }
        guard width > 0 || height > 0 else { throw reader.bad("needs a width or a height above 0") }
        return Edit.Crop(width: width, height: height, gravity: gravity)
    }

    /// `WxH` or `WxH+X+Y`: both sides at least 1, the offset at least 0.
    private static func parseCompact(_ text: String, reader: OptionArguments) throws -> Edit.Crop {
        let parts = text.lowercased().split(separator: "+", omittingEmptySubsequences: false)
        let sides = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 3, sides.count == 2 else { throw reader.bad("'\(text)' is not WxH or WxH+X+Y") }
        guard let width = Int(sides[0]), let height = Int(sides[1]), width > 0, height > 0 else {
            throw reader.bad("'\(text)': width and height must be whole numbers of at least 1")
        }
        guard parts.count == 3 else { return Edit.Crop(width: width, height: height) }
        guard let x = Int(parts[1]), let y = Int(parts[2]), x >= 0, y >= 0 else {
            throw reader.bad("'\(text)': the offset +X+Y must be whole numbers of at least 0")
        }
        return Edit.Crop(width: width, height: height, origin: Edit.PixelPoint(x: x, y: y))
    }
}
