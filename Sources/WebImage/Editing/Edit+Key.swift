extension Edit {
    /// The edit as stable text, in the URL's grammar with every argument written out:
    /// `bl:2.0`, `rc:12.0:2.0:ff0000ff`, `tn:00ff0080:multiply`, `c:100:50:sm`. Edits that mean
    /// the same share it (names and aliases, defaults, colour spellings), it parses back to the
    /// same edit (``init(parsing:)``), and it does not change between releases: the service's
    /// cache entries and ETags are made of it.
    ///
    /// ```swift
    /// try Edit(parsing: "blur:2")?.key        // "bl:2.0"
    /// try Edit(option: "--sepia", value: nil)?.key  // "sp:1.0"
    /// ```
    public var key: String {
        kind.shortName + ":" + keyArguments.joined(separator: ":")
    }

    private var keyArguments: [String] {
        switch self {
        case .blur(let sigma): ["\(sigma)"]
        case .sharpen(let sigma): ["\(sigma)"]
        case .roundCorner(let radius, let border, let color): ["\(radius)", "\(border)", Self.hex(color)]
        case .circle(let border, let color): ["\(border)", Self.hex(color)]
        case .tint(let color, let mode): [Self.hex(color), mode.rawValue]
        case .grayscale(let amount), .sepia(let amount), .invert(let amount): ["\(amount)"]
        case .brightness(let factor), .contrast(let factor), .saturation(let factor): ["\(factor)"]
        case .rotate(let degrees): ["\(degrees)"]
        case .flip(let horizontal, let vertical): [horizontal ? "1" : "0", vertical ? "1" : "0"]
        case .crop(let crop):
            if let origin = crop.origin {
                ["\(crop.width)x\(crop.height)+\(origin.x)+\(origin.y)"]
            } else {
                ["\(crop.width)", "\(crop.height)", crop.gravity?.keyName ?? "-"]
            }
        }
    }

    /// `rrggbbaa`, lower case.
    static func hex(_ color: RGBA8) -> String {
        [color.r, color.g, color.b, color.a].hexString
    }
}
