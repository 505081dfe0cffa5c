extension Edit {
    /// Which step an ``Edit`` is, with the names it is written under: the URL's short name and
    /// long alias (as imgproxy spells them) and the command line's long option.
    ///
    /// ```swift
    /// Edit.Kind(named: "bl") == .blur           // URL short name
    /// Edit.Kind(named: "round_corner")          // URL alias: .roundCorner
    /// Edit.Kind(option: "--round-corner")       // CLI option: .roundCorner
    /// Edit.Kind.blur.optionName                 // "--blur"
    /// ```
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case blur, sharpen, roundCorner, circle, tint, grayscale, sepia, brightness, contrast, saturation, invert
        case rotate, flip, crop

        /// The URL's short name (`bl`); also the first part of the canonical ``Edit/key``.
        public var shortName: String {
            switch self {
            case .blur: "bl"
            case .sharpen: "sh"
            case .roundCorner: "rc"
            case .circle: "ci"
            case .tint: "tn"
            case .grayscale: "gs"
            case .sepia: "sp"
            case .brightness: "br"
            case .contrast: "co"
            case .saturation: "sa"
            case .invert: "iv"
            case .rotate: "rot"
            case .flip: "fl"
            case .crop: "c"
            }
        }

        /// The URL's long alias (`blur`, `round_corner`).
        public var longName: String {
            switch self {
            case .roundCorner: "round_corner"
            default: rawValue
            }
        }

        /// The command line's long option (`--blur`, `--round-corner`).
        public var optionName: String {
            switch self {
            case .roundCorner: "--round-corner"
            default: "--" + rawValue
            }
        }

        /// Whether the command line writes the step as a flag without a value (`--sharpen`):
        /// its arguments all have defaults.
        public var isFlag: Bool {
            switch self {
            case .sharpen, .circle, .grayscale, .sepia, .invert: true
            default: false
            }
        }

        /// The step a URL names `name`: its short name or long alias; nil for any other name.
        public init?(named name: some StringProtocol) {
            guard let kind = Self.byName[String(name)] else { return nil }
            self = kind
        }

        /// The step a command line names `option` (`--blur`); nil for any other option.
        public init?(option: some StringProtocol) {
            guard let kind = Self.allCases.first(where: { $0.optionName == option }) else { return nil }
            self = kind
        }

        private static let byName: [String: Kind] = Dictionary(
            uniqueKeysWithValues: allCases.flatMap { kind in [(kind.shortName, kind), (kind.longName, kind)] })
    }

    /// Which step this is.
    public var kind: Kind {
        switch self {
        case .blur: .blur
        case .sharpen: .sharpen
        case .roundCorner: .roundCorner
        case .circle: .circle
        case .tint: .tint
        case .grayscale: .grayscale
        case .sepia: .sepia
        case .brightness: .brightness
        case .contrast: .contrast
        case .saturation: .saturation
        case .invert: .invert
        case .rotate: .rotate
        case .flip: .flip
        case .crop: .crop
        }
    }
}
