/// How a watermark is drawn: imgproxy's `wm:OPACITY:POSITION:X:Y:SCALE` (`watermark`), and the
/// command line's `--watermark-options` in the same grammar. The image itself comes from
/// elsewhere (the service's `--watermark`, a URL's `wmu`, the CLI's `--watermark FILE`), so this
/// holds only the parameters; ``transformer(overlay:)`` pairs them with it as a
/// ``CompositeTransformer``.
///
/// - OPACITY: 0–1 (0 switches the watermark off, as in imgproxy).
/// - POSITION: a gravity as `g:` writes it (`ce` by default, `no`, `so`, `ea`, `we`, `noea`,
///   `nowe`, `soea`, `sowe`, or the long names), or `re` to repeat it over the whole image.
/// - X, Y: pixels inwards from the edges the position touches (right and down along a centred
///   axis); with `re`, the spacing between the tiles.
/// - SCALE: the watermark's width as a fraction of the result's width, 0–1 (0: its own size).
///
/// ```swift
/// var reader = OptionArguments(segment: "wm:0.5:soea:10:10:0.25")
/// let watermark = try Watermark(arguments: &reader)   // opacity 0.5, south-east, inset 10
/// let marked = try watermark?.transformer(overlay: logo).transform(photo)
/// ```
public struct Watermark: Sendable, Hashable {
    /// Where the watermark goes.
    public enum Position: Sendable, Hashable {
        /// Once, at a gravity.
        case gravity(ImageGravity)
        /// Repeated over the whole image (`re`).
        case replicate
    }

    /// 0–1, over the watermark's own alpha.
    public var opacity: Double
    /// Where it goes (default the centre).
    public var position: Position
    /// Pixels from the edge along x (or the spacing between tiles).
    public var x: Int
    /// Pixels from the edge along y (or the spacing between tiles).
    public var y: Int
    /// Its width as a fraction of the result's width (0: its own size).
    public var scale: Double

    /// A watermark drawn with `opacity` at `position`, moved by `x` and `y`, at `scale` of the width.
    public init(opacity: Double = 1, position: Position = .gravity(.center), x: Int = 0, y: Int = 0, scale: Double = 0) {
        self.opacity = opacity
        self.position = position
        self.x = x
        self.y = y
        self.scale = scale
    }

    /// Reads `OPACITY[:POSITION[:X[:Y[:SCALE]]]]` (empty arguments keep the defaults); nil when
    /// the opacity is 0 (no watermark). A bad argument throws
    /// ``WebImageError/Code/invalidProcessingOptions`` naming the option.
    public init?(arguments reader: inout OptionArguments) throws {
        let opacity = try reader.number(in: 0...1)
        var position = Position.gravity(.center)
        if let name = reader.optionalText() {
            if name == "re" || name == "replicate" {
                position = .replicate
            } else if case .gravity(let gravity)? = GravityCropTransformer.Anchor(parsing: name) {
                position = .gravity(gravity)
            } else {
                throw reader.bad("unknown watermark position '\(name)' (a gravity, or re to repeat)")
            }
        }
        let x = try Self.offset(&reader)
        let y = try Self.offset(&reader)
        let scale = try reader.optionalNumber(in: 0...1) ?? 0
        try reader.finish()
        guard opacity > 0 else { return nil }
        self.init(opacity: opacity, position: position, x: x, y: y, scale: scale)
    }

    /// `wm:OPACITY:POSITION:X:Y:SCALE` with every argument written out (`wm:0.5:southEast:10:10:0`,
    /// `wm:1:re:0:0:0.25`): stable text for cache keys.
    public var key: String {
        let place =
            switch position {
            case .gravity(let gravity): gravity.rawValue
            case .replicate: "re"
            }
        return "wm:\(keyNumber(opacity)):\(place):\(x):\(y):\(keyNumber(scale))"
    }

    /// The compositing step that draws `overlay` as these parameters say.
    public func transformer(overlay: Image) -> CompositeTransformer {
        let placement: CompositeTransformer.Placement =
            switch position {
            case .gravity(let gravity): .offset(gravity, x: x, y: y)
            case .replicate: .tiled(spacingX: x, spacingY: y)
            }
        return CompositeTransformer(overlay: overlay, placement: placement, opacity: opacity, scale: scale)
    }

    private static func offset(_ reader: inout OptionArguments) throws -> Int {
        guard let text = reader.optionalText() else { return 0 }
        guard let value = Int(text), abs(value) <= 100_000 else { throw reader.bad("'\(text)' is not an offset in pixels") }
        return value
    }
}
