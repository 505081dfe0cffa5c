public import WebImage

/// What one image URL asks for: the imgproxy-style options of its path, parsed and checked.
///
/// Geometry runs in a fixed order — crop, resize, rotate, flip — and the effects (blur, sharpen,
/// round corners, circle, tint, colour filters) follow in the order the URL gives them.
///
/// ```swift
/// let options = try ProcessingOptions(segments: ["rs:fill:300:200", "g:sm", "bl:2", "q:75"])
/// print(options.canonicalKey)
/// ```
public struct ProcessingOptions: Sendable, Hashable {
    /// How `rs`/`rt` fits the image into width × height.
    public enum ResizingType: String, Sendable, Hashable, CaseIterable {
        /// Inside the box, keeping the aspect ratio.
        case fit
        /// Covering the box, keeping the aspect ratio, cropped at the gravity.
        case fill
        /// As `fill`, never enlarged: a smaller source keeps the box's proportions at its own scale.
        case fillDown = "fill-down"
        /// Stretched to the box.
        case force
        /// `fill` when the source and the box are both portrait or both landscape, else `fit`.
        case auto
    }

    /// The output format asked for.
    public enum Format: Sendable, Hashable {
        /// Chosen by the `Accept` header: AVIF or WebP when accepted and built, else the source's format.
        case auto
        /// This format.
        case explicit(ImageFormat)
    }

    /// One effect, applied after the geometry in URL order.
    public enum Effect: Sendable, Hashable {
        /// `bl:SIGMA`: ``WebImage/GaussianBlurTransformer``.
        case blur(sigma: Double)
        /// `sh:SIGMA`: ``WebImage/SharpenTransformer`` (amount 1).
        case sharpen(sigma: Double)
        /// `rc:R[:BORDER:COLOR]`: ``WebImage/RoundCornerTransformer``.
        case roundCorner(radius: Double, border: Double, color: RGBA8)
        /// `ci:1[:BORDER:COLOR]`: ``WebImage/RoundCornerTransformer/circle(borderWidth:borderColor:)``.
        case circle(border: Double, color: RGBA8)
        /// `tn:COLOR[:MODE]`: ``WebImage/TintTransformer``.
        case tint(RGBA8, TintTransformer.BlendMode)
        /// `gs:AMOUNT`: greyscale colour matrix.
        case grayscale(Double)
        /// `sp:AMOUNT`: sepia colour matrix.
        case sepia(Double)
        /// `br:FACTOR`: brightness colour matrix.
        case brightness(Double)
        /// `co:FACTOR`: contrast colour matrix.
        case contrast(Double)
        /// `sa:FACTOR`: saturation colour matrix.
        case saturation(Double)
        /// `iv:AMOUNT`: inversion colour matrix.
        case invert(Double)
    }

    /// A crop of the source, before resizing.
    public struct Crop: Sendable, Hashable {
        /// The crop width in displayed pixels (0: the source's own width).
        public var width: Int
        /// The crop height in displayed pixels (0: the source's own height).
        public var height: Int
        /// Where the crop sits (`nil`: the URL's gravity).
        public var gravity: GravityCropTransformer.Anchor?
    }

    /// `rs`/`rt`: how to fit (default `fit`).
    public var resizingType = ResizingType.fit
    /// Target width (0: from the height and the aspect ratio).
    public var width = 0
    /// Target height (0: from the width and the aspect ratio).
    public var height = 0
    /// Whether a smaller source is enlarged (`el:1`).
    public var enlarge = false
    /// Whether a `fit` result is padded to exactly width × height (`pd:1`).
    public var pad = false
    /// Where `fill` and `c` keep the image (default centre; `sm` is attention).
    public var gravity = GravityCropTransformer.Anchor.gravity(.center)
    /// `c:W:H[:G]`.
    public var crop: Crop?
    /// The resampling kernel (`fi:lanczos|mitchell|bilinear|nearest`).
    public var filter = Resampler.Filter.lanczos3
    /// Clockwise degrees (`rot`).
    public var rotate = 0.0
    /// Mirror left–right (`fl:h`).
    public var flipHorizontal = false
    /// Mirror top–bottom (`fl:v`).
    public var flipVertical = false
    /// 1–100 (`q`; nil: the service's default).
    public var quality: Int?
    /// The output format (`f`, or the path's extension).
    public var format = Format.auto
    /// What transparent pixels become in formats without alpha (`bg`; default white).
    public var background: RGBA8?
    /// The effects, in URL order.
    public var effects: [Effect] = []

    /// Defaults: the source as it is, in an `auto` format.
    public init() {}

    /// Whether any geometry or effect changes pixels (else only the format or quality may differ).
    public var changesPixels: Bool {
        width > 0 || height > 0 || crop != nil || rotate != 0 || flipHorizontal || flipVertical || !effects.isEmpty
    }

    /// A stable text naming every option with its value, in a fixed order: two URLs that mean the
    /// same thing (aliases, argument order of different options) share it, and so their cache
    /// entries and ETags.
    public var canonicalKey: String {
        var parts = ["rs:\(resizingType.rawValue):\(width):\(height):\(enlarge ? 1 : 0):\(pad ? 1 : 0)"]
        parts.append("g:\(Self.name(of: gravity))")
        if let crop { parts.append("c:\(crop.width):\(crop.height):\(crop.gravity.map(Self.name(of:)) ?? "-")") }
        if filter != .lanczos3 { parts.append("fi:\(filter.rawValue)") }
        if rotate != 0 { parts.append("rot:\(rotate)") }
        if flipHorizontal || flipVertical { parts.append("fl:\(flipHorizontal ? 1 : 0):\(flipVertical ? 1 : 0)") }
        if let quality { parts.append("q:\(quality)") }
        if let background { parts.append("bg:\(Self.hex(background))") }
        for effect in effects { parts.append(Self.key(of: effect)) }
        return parts.joined(separator: "/")
    }

    static func name(of anchor: GravityCropTransformer.Anchor) -> String {
        switch anchor {
        case .attention: "sm"
        case .gravity(let gravity): gravity.rawValue
        }
    }

    static func hex(_ color: RGBA8) -> String {
        [color.r, color.g, color.b, color.a].map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    static func key(of effect: Effect) -> String {
        switch effect {
        case .blur(let sigma): "bl:\(sigma)"
        case .sharpen(let sigma): "sh:\(sigma)"
        case .roundCorner(let radius, let border, let color): "rc:\(radius):\(border):\(hex(color))"
        case .circle(let border, let color): "ci:\(border):\(hex(color))"
        case .tint(let color, let mode): "tn:\(hex(color)):\(mode.rawValue)"
        case .grayscale(let amount): "gs:\(amount)"
        case .sepia(let amount): "sp:\(amount)"
        case .brightness(let factor): "br:\(factor)"
        case .contrast(let factor): "co:\(factor)"
        case .saturation(let factor): "sa:\(factor)"
        case .invert(let amount): "iv:\(amount)"
        }
    }
}
