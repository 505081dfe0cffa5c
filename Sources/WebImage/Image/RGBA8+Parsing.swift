extension RGBA8 {
    /// The CSS basic colour names the command line and the service accept, lowercased.
    public static let basicColorNames: [String: RGBA8] = [
        "black": .black, "white": .white, "transparent": .clear,
        "red": RGBA8(r: 255, g: 0, b: 0), "green": RGBA8(r: 0, g: 128, b: 0), "lime": RGBA8(r: 0, g: 255, b: 0),
        "blue": RGBA8(r: 0, g: 0, b: 255), "yellow": RGBA8(r: 255, g: 255, b: 0),
        "cyan": RGBA8(r: 0, g: 255, b: 255), "magenta": RGBA8(r: 255, g: 0, b: 255),
        "gray": RGBA8(r: 128, g: 128, b: 128), "grey": RGBA8(r: 128, g: 128, b: 128),
        "orange": RGBA8(r: 255, g: 165, b: 0), "purple": RGBA8(r: 128, g: 0, b: 128),
    ]

    /// A colour written as a CSS basic name (``basicColorNames``, any case) or in hex: `rgb`,
    /// `rrggbb` or `rrggbbaa`, with or without a leading `#`; nil for anything else.
    ///
    /// ```swift
    /// RGBA8(parsing: "#f80")        // RGBA8(r: 255, g: 136, b: 0, a: 255)
    /// RGBA8(parsing: "00000080")    // half-transparent black
    /// RGBA8(parsing: "Orange")      // RGBA8(r: 255, g: 165, b: 0, a: 255)
    /// ```
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let named = Self.basicColorNames[lowered] {
            self = named
            return
        }
        let hex = lowered.hasPrefix("#") ? lowered.dropFirst() : Substring(lowered)
        guard [3, 6, 8].contains(hex.count), hex.allSatisfy(\.isHexDigit) else { return nil }
        let digits = hex.count == 3 ? hex.flatMap { [$0, $0] } : Array(hex)
        var bytes = stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        if bytes.count == 3 { bytes.append(255) }
        self.init(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes[3])
    }
}
