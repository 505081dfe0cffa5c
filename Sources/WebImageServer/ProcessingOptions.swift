public import WebImage

/// What one image URL asks for: the imgproxy-style options of its path, parsed and checked.
///
/// Geometry runs in a fixed order — crop, resize, rotate, flip — and the effects (blur, sharpen,
/// round corners, circle, tint, colour filters) follow in the order the URL gives them. Crop,
/// rotate, flip and the effects are the core's ``WebImage/Edit`` steps: parsed, checked and keyed
/// by it as the command line's flags are.
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

    /// One effect, applied after the geometry in URL order: an ``WebImage/Edit`` other than
    /// rotate, flip and crop (which have their fixed places).
    @available(*, deprecated, renamed: "Edit")
    public typealias Effect = Edit

    /// A crop of the source, before resizing (`c:W:H[:G]`): a side of 0 keeps that side whole, a
    /// `nil` gravity is the URL's; never with an origin.
    public typealias Crop = Edit.Crop

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
    /// Qualities by output format (`fq:webp:75:avif:55`), over the service's `--format-quality`
    /// and under `q`; part of ``canonicalKey`` unless `q` is given.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// `dpr`: the device pixel ratio the width and height were multiplied by (default 1). The
    /// parser has already applied it (capped by the result limit); it is not part of
    /// ``canonicalKey``, whose sizes are the multiplied ones.
    public var devicePixelRatio = 1.0
    /// `raw:1`: the source's bytes are answered as they are (every other option is ignored, as
    /// imgproxy does); still size-limited and SSRF-checked like any fetch.
    public var raw = false
    /// `cb:STRING` (`cachebuster`), imgproxy's cache buster: changes nothing in the image but is
    /// part of ``canonicalKey`` (so of the cache entries and the ETag) and, being in the path, of
    /// the signature: a new value makes caches in front fetch anew.
    public var cacheBuster: String?
    /// The output format (`f`, or the path's extension).
    public var format = Format.auto
    /// What transparent pixels become in formats without alpha (`bg`; default white).
    public var background: RGBA8?
    /// What happens to the source's colour profile: converted to sRGB and stripped (imgproxy's
    /// `scp:1`, the default), kept with the pixels as stored (`scp:0`), or ignored (the service's
    /// `--colour ignore`). Part of ``canonicalKey`` when not sRGB.
    public var colorPolicy = ColorPolicy.sRGB
    /// What of the source's EXIF, XMP and IPTC the output keeps: the service's `--metadata`
    /// unless `sm`/`strip_metadata` or `kcr`/`keep_copyright` say otherwise
    /// (``MetadataURLOptions``). Part of ``canonicalKey`` when not ``MetadataPolicy/strip``.
    public var metadataPolicy = MetadataPolicy.strip
    /// The effects, in URL order (never rotate, flip or crop: they are the fields above).
    public var effects: [Edit] = []
    /// `wm:OPACITY:POSITION:X:Y:SCALE` (`watermark`): drawn last, over the effects; the image is
    /// the service's `--watermark`, or ``watermarkURL``'s.
    public var watermark: Watermark?
    /// `wmu:BASE64URL` (`watermark_url`), decoded: this request's watermark image, accepted by the
    /// service only from its `--watermark-dir` (`local://`) or a `--watermark-allow-host`.
    public var watermarkURL: String?
    /// `mb:BYTES` (`max_bytes`): the most bytes a lossy result may have; the quality goes down,
    /// then the size, until it fits (``ImageProcessor``). Lossless formats ignore it.
    public var maxBytes: Int?

    /// Defaults: the source as it is, in an `auto` format.
    public init() {}

    /// Whether any geometry or effect changes pixels (else only the format or quality may differ).
    public var changesPixels: Bool {
        width > 0 || height > 0 || crop != nil || rotate != 0 || flipHorizontal || flipVertical || !effects.isEmpty
            || watermark != nil
    }

    /// A stable text naming every option with its value, in a fixed order: two URLs that mean the
    /// same thing (aliases, argument order of different options) share it, and so their cache
    /// entries and ETags.
    public var canonicalKey: String {
        var parts = ["rs:\(resizingType.rawValue):\(width):\(height):\(enlarge ? 1 : 0):\(pad ? 1 : 0)"]
        parts.append("g:\(gravity.keyName)")
        if let crop { parts.append(Edit.crop(crop).key) }
        if filter != .lanczos3 { parts.append("fi:\(filter.rawValue)") }
        if rotate != 0 { parts.append(Edit.rotate(degrees: rotate).key) }
        if flipHorizontal || flipVertical { parts.append(Edit.flip(horizontal: flipHorizontal, vertical: flipVertical).key) }
        if let quality { parts.append("q:\(quality)") }
        if quality == nil, !formatQuality.isEmpty { parts.append("fq:" + Self.formatQualityKey(formatQuality)) }
        if let background { parts.append("bg:\([background.r, background.g, background.b, background.a].hexString)") }
        if colorPolicy != .sRGB { parts.append("cp:\(colorPolicy.rawValue)") }
        if let cacheBuster { parts.append("cb:" + cacheBuster) }
        if metadataPolicy != .strip { parts.append("md:\(metadataPolicy.rawValue)") }
        parts += effects.map(\.key)
        if let watermark {
            parts.append(watermark.key)
            if let watermarkURL { parts.append("wmu:" + watermarkURL) }
        }
        if let maxBytes { parts.append("mb:\(maxBytes)") }
        return parts.joined(separator: "/")
    }

    /// The rotation, the flip and the effects as transformers, in the order they run after the
    /// resize; `maxPixelCount` bounds a rotated canvas.
    func editTransformers(maxPixelCount: Int) -> [any ImageTransforming] {
        var edits = effects
        if flipHorizontal || flipVertical { edits.insert(.flip(horizontal: flipHorizontal, vertical: flipVertical), at: 0) }
        if rotate != 0 { edits.insert(.rotate(degrees: rotate), at: 0) }
        return edits.map { $0.transformer(maxPixelCount: maxPixelCount) }
    }
}
