/// The `:`-separated arguments of one option (`rc:12:2:ff0000` or `--round-corner 12:2:ff0000`),
/// read left to right; every failure is a ``WebImageError`` with code
/// ``WebImageError/Code/invalidProcessingOptions`` naming the option as written.
///
/// An empty argument counts as absent (as imgproxy reads `rs::300`).
///
/// ```swift
/// var reader = OptionArguments(segment: "bl:2")
/// let sigma = try reader.number(in: 0...2000)   // 2
/// try reader.finish()                             // throws if arguments are left over
/// ```
public struct OptionArguments: Sendable {
    /// The option's name as written (`bl`, `blur`, `--blur`).
    public let name: String
    /// Its arguments, in order.
    public let arguments: [Substring]
    private var index = 0

    /// The arguments `arguments` of the option written `name`.
    public init(name: String, arguments: [Substring]) {
        self.name = name
        self.arguments = arguments
    }

    /// A URL segment: the name, then its arguments, `:`-separated.
    public init(segment: some StringProtocol) {
        let parts = String(segment).split(separator: ":", omittingEmptySubsequences: false)
        self.init(name: String(parts[0]), arguments: Array(parts.dropFirst()))
    }

    /// A command-line option and its value (nil for a flag), the value `:`-separated.
    public init(option: String, value: String?) {
        self.init(name: option, arguments: value.map { $0.split(separator: ":", omittingEmptySubsequences: false) } ?? [])
    }

    /// An `invalidProcessingOptions` error naming the option: `option 'NAME': REASON`.
    public func bad(_ reason: String) -> WebImageError {
        WebImageError(.invalidProcessingOptions, "option '\(name)': \(reason)")
    }

    /// Throws when arguments are left over.
    public func finish() throws {
        if index < arguments.count { throw bad("too many arguments (\(arguments.count))") }
    }

    /// The next argument if present and not empty.
    public mutating func optionalText() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        let value = arguments[index]
        return value.isEmpty ? nil : String(value)
    }

    /// The next argument; throws when it is missing.
    public mutating func text() throws -> String {
        guard let value = optionalText() else { throw bad("missing argument \(index)") }
        return value
    }

    /// The next argument as a size in pixels (an integer ≥ 0), if present.
    public mutating func optionalDimension() throws -> Int? {
        guard let text = optionalText() else { return nil }
        guard let value = Int(text), value >= 0 else { throw bad("'\(text)' is not a size in pixels") }
        return value
    }

    /// The next argument as a size in pixels (an integer ≥ 0).
    public mutating func dimension() throws -> Int {
        guard let value = try optionalDimension() else { throw bad("missing size") }
        return value
    }

    /// The next argument as an integer.
    public mutating func integer() throws -> Int {
        let text = try text()
        guard let value = Int(text) else { throw bad("'\(text)' is not an integer") }
        return value
    }

    /// The next argument as a finite number within `range`, if present.
    public mutating func optionalNumber(in range: ClosedRange<Double>) throws -> Double? {
        guard let text = optionalText() else { return nil }
        guard let value = Double(text), value.isFinite else { throw bad("'\(text)' is not a number") }
        guard range.contains(value) else { throw bad("\(text) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// The next argument as a finite number within `range`.
    public mutating func number(
        in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
    ) throws -> Double {
        guard let value = try optionalNumber(in: range) else { throw bad("missing number") }
        return value
    }

    /// `1`, `t`, `true` or `0`, `f`, `false`; nil for anything else.
    public static func boolValue(_ text: String) -> Bool? {
        switch text {
        case "1", "t", "true": true
        case "0", "f", "false": false
        default: nil
        }
    }

    /// Whether the next argument, if present, is a boolean (without consuming it).
    public func nextIsBool() -> Bool {
        index < arguments.count && Self.boolValue(String(arguments[index])) != nil
    }

    /// The next argument as a boolean, if present.
    public mutating func optionalBool() throws -> Bool? {
        guard let text = optionalText() else { return nil }
        guard let value = Self.boolValue(text) else { throw bad("'\(text)' is not a boolean (1, 0, true, false)") }
        return value
    }

    /// The next argument as a boolean.
    public mutating func bool() throws -> Bool {
        guard let value = try optionalBool() else { throw bad("missing boolean") }
        return value
    }

    /// A colour, if present: hex `rgb`, `rrggbb` or `rrggbbaa` (with or without `#` or `%23`),
    /// a CSS basic name (``RGBA8/basicColorNames``), or a decimal `R:G:B` triple taking three
    /// arguments. Three decimal digits are the red of `R:G:B`, not hex.
    public mutating func optionalColor() throws -> RGBA8? {
        guard let text = optionalText() else { return nil }
        let written = text.lowercased().hasPrefix("%23") ? "#" + text.dropFirst(3) : text
        let decimal = written.count == 3 && written.allSatisfy(\.isNumber)
        if !decimal, let color = RGBA8(parsing: written) { return color }
        guard let red = UInt8(text) else { throw bad("'\(text)' is not a colour (hex, a name, or R:G:B)") }
        guard let green = optionalText().flatMap({ UInt8($0) }), let blue = optionalText().flatMap({ UInt8($0) }) else {
            throw bad("a decimal colour needs R:G:B, each 0–255")
        }
        return RGBA8(r: red, g: green, b: blue)
    }

    /// A colour (see ``optionalColor()``).
    public mutating func color() throws -> RGBA8 {
        guard let value = try optionalColor() else { throw bad("missing colour") }
        return value
    }

    /// A crop anchor, if present (see ``GravityCropTransformer/Anchor/init(parsing:)``).
    public mutating func optionalAnchor() throws -> GravityCropTransformer.Anchor? {
        guard let text = optionalText() else { return nil }
        guard let anchor = GravityCropTransformer.Anchor(parsing: text) else { throw bad("unknown gravity '\(text)'") }
        return anchor
    }
}
