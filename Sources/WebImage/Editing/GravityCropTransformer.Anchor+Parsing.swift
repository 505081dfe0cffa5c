extension GravityCropTransformer.Anchor {
    /// imgproxy's short names and ours: `ce`, `no`, `so`, `ea`, `we`, `noea`, `nowe`, `soea`,
    /// `sowe`, `sm` (attention), or ``ImageGravity`` names in any case and `attention`; nil for
    /// anything else.
    ///
    /// ```swift
    /// GravityCropTransformer.Anchor(parsing: "soea")        // .gravity(.southEast)
    /// GravityCropTransformer.Anchor(parsing: "NorthWest")   // .gravity(.northWest)
    /// GravityCropTransformer.Anchor(parsing: "sm")          // .attention
    /// ```
    public init?(parsing text: String) {
        if text == "sm" || text == "attention" {
            self = .attention
        } else if let gravity = Self.shortNames[text] ?? ImageGravity.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            self = .gravity(gravity)
        } else {
            return nil
        }
    }

    /// The anchor in canonical keys: `sm` for attention, else the gravity's name (`southEast`).
    public var keyName: String {
        switch self {
        case .attention: "sm"
        case .gravity(let gravity): gravity.rawValue
        }
    }

    private static let shortNames: [String: ImageGravity] = [
        "ce": .center, "no": .north, "so": .south, "ea": .east, "we": .west,
        "noea": .northEast, "nowe": .northWest, "soea": .southEast, "sowe": .southWest,
    ]
}
