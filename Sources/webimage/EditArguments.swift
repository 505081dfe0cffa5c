import ArgumentParser
import WebImageCodecs

/// A colour argument: `#rgb`, `#rrggbb`, `#rrggbbaa` (the `#` optional) or a CSS basic name.
struct ColorArgument: ExpressibleByArgument {
    let color: RGBA8

    init?(argument: String) {
        guard let color = RGBA8(parsing: argument) else { return nil }
        self.color = color
    }
}

/// `--tint COLOR[:MODE]`.
struct TintArgument: ExpressibleByArgument {
    let transformer: TintTransformer

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let color = ColorArgument(argument: parts[0]) else { return nil }
        var mode = TintTransformer.BlendMode.normal
        if parts.count == 2 {
            guard let named = TintTransformer.BlendMode(rawValue: parts[1]) else { return nil }
            mode = named
        }
        transformer = TintTransformer(color: color.color, blendMode: mode)
    }
}

/// A finite decimal number (`--rotate`, `--blur`).
struct NumberArgument: ExpressibleByArgument {
    let value: Double

    init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self.value = value
    }
}

/// `--flip h|v|hv`.
enum FlipArgument: String, ExpressibleByArgument, CaseIterable {
    case h, v, hv

    var transformer: FlipTransformer { FlipTransformer(horizontal: self != .v, vertical: self != .h) }
}

/// `--round-corner R[:BORDER:COLOR]`.
struct RoundCornerArgument: ExpressibleByArgument {
    let transformer: RoundCornerTransformer

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 1 || parts.count == 3, let radius = Double(parts[0]), radius.isFinite, radius >= 0
        else { return nil }
        guard parts.count == 3 else {
            transformer = RoundCornerTransformer(radius: radius)
            return
        }
        guard let border = Double(parts[1]), border.isFinite, border >= 0, let color = ColorArgument(argument: parts[2])
        else { return nil }
        transformer = RoundCornerTransformer(radius: radius, borderWidth: border, borderColor: color.color)
    }
}

/// `--crop WxH[+X+Y]`: a size placed by `--gravity`, or a rectangle at an offset.
struct CropArgument: ExpressibleByArgument {
    let size: SizeArgument
    let offset: (x: Int, y: Int)?

    init?(argument: String) {
        let parts = argument.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 1 || parts.count == 3, let size = SizeArgument(argument: parts[0]) else { return nil }
        self.size = size
        if parts.count == 3 {
            guard let x = Int(parts[1]), let y = Int(parts[2]), x >= 0, y >= 0 else { return nil }
            offset = (x, y)
        } else {
            offset = nil
        }
    }
}

/// `--gravity`: a compass position, or `attention` (the most detailed region).
struct GravityArgument: ExpressibleByArgument {
    let anchor: GravityCropTransformer.Anchor

    static let allNames = ImageGravity.allCases.map(\.rawValue) + ["attention"]

    init?(argument: String) {
        if argument == "attention" {
            anchor = .attention
        } else if let gravity = ImageGravity.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) {
            anchor = .gravity(gravity)
        } else {
            return nil
        }
    }
}

/// `--filter`: the resampling kernel of `--resize`.
enum FilterArgument: String, ExpressibleByArgument, CaseIterable {
    case lanczos, mitchell, bilinear, nearest

    var filter: Resampler.Filter {
        switch self {
        case .lanczos: .lanczos3
        case .mitchell: .mitchell
        case .bilinear: .bilinear
        case .nearest: .nearest
        }
    }
}
