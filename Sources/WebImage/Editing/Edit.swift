/// One editing step of the shared vocabulary: what the command line's transform flags
/// (`--blur 2`) and the service's URL options (`bl:2`) both parse into.
///
/// Each case owns, in the files beside this one, its names (``Kind``), the grammar of its
/// arguments (``parse(_:arguments:)``), a stable canonical ``key`` and the library
/// ``transformer(maxPixelCount:)`` it stands for. Adding a step is one case here and one
/// transformer file; the compiler then points at every switch the case must join.
///
/// ```swift
/// let edit = try Edit(parsing: "rc:12:2:ff0000")      // URL spelling
/// let same = try Edit(option: "--round-corner", value: "12:2:ff0000")  // CLI spelling
/// print(edit?.key ?? "")                              // "rc:12.0:2.0:ff0000ff"
/// let rounded = try edit?.transformer().transform(image)
/// ```
public enum Edit: Sendable, Hashable {
    /// `bl:SIGMA`, `--blur SIGMA`: ``GaussianBlurTransformer``, σ 0–2000.
    case blur(sigma: Double)
    /// `sh[:SIGMA]`, `--sharpen`: ``SharpenTransformer`` (amount 1), σ 0.1–100, default 1.
    case sharpen(sigma: Double)
    /// `rc:R[:BORDER[:COLOR]]`, `--round-corner R[:BORDER:COLOR]`: ``RoundCornerTransformer``.
    case roundCorner(radius: Double, border: Double, color: RGBA8)
    /// `ci[:1[:BORDER[:COLOR]]]`, `--circle`: ``RoundCornerTransformer/circle(borderWidth:borderColor:)``.
    case circle(border: Double, color: RGBA8)
    /// `tn:COLOR[:MODE]`, `--tint COLOR[:MODE]`: ``TintTransformer``.
    case tint(RGBA8, TintTransformer.BlendMode)
    /// `gs[:AMOUNT]`, `--grayscale`: the greyscale ``ColorMatrixTransformer``, amount 0–1.
    case grayscale(Double)
    /// `sp[:AMOUNT]`, `--sepia`: the sepia ``ColorMatrixTransformer``, amount 0–1.
    case sepia(Double)
    /// `br:FACTOR`, `--brightness FACTOR`: the brightness ``ColorMatrixTransformer``, 0–10.
    case brightness(Double)
    /// `co:FACTOR`, `--contrast FACTOR`: the contrast ``ColorMatrixTransformer``, 0–10.
    case contrast(Double)
    /// `sa:FACTOR`, `--saturation FACTOR`: the saturation ``ColorMatrixTransformer``, 0–10.
    case saturation(Double)
    /// `iv[:AMOUNT]`, `--invert`: the inverting ``ColorMatrixTransformer``, amount 0–1.
    case invert(Double)
    /// `rot:DEG`, `--rotate DEG`: ``RotateTransformer``, clockwise, within ±3600°.
    case rotate(degrees: Double)
    /// `fl:h|v|hv|vh` or `fl:H:V` booleans, `--flip h|v|hv`: ``FlipTransformer``.
    case flip(horizontal: Bool, vertical: Bool)
    /// `c:W:H[:GRAVITY]` or `c:WxH[+X+Y]`, `--crop WxH[+X+Y]`: ``GravityCropTransformer`` or
    /// ``CropTransformer``.
    case crop(Crop)

    /// The region a ``Edit/crop(_:)`` keeps.
    public struct Crop: Sendable, Hashable {
        /// The width kept, in displayed pixels (0: the whole width).
        public var width: Int
        /// The height kept, in displayed pixels (0: the whole height).
        public var height: Int
        /// Where the window goes when there is no ``origin`` (`nil`: the caller's default, centre
        /// for the library).
        public var gravity: GravityCropTransformer.Anchor?
        /// The window's top-left corner, when given as `+X+Y`; both sides are then above 0.
        public var origin: PixelPoint?

        /// A crop of `width` × `height` placed by `gravity`, or at `origin` when given.
        public init(width: Int, height: Int, gravity: GravityCropTransformer.Anchor? = nil, origin: PixelPoint? = nil) {
            self.width = width
            self.height = height
            self.gravity = gravity
            self.origin = origin
        }
    }

    /// A position in pixels, from the top-left corner.
    public struct PixelPoint: Sendable, Hashable {
        /// Pixels from the left edge.
        public var x: Int
        /// Pixels from the top edge.
        public var y: Int

        /// The point (`x`, `y`).
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }
}
