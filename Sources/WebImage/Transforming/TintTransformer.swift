/// Tints the image with a colour through a blend mode (SDWebImage's `SDImageTintTransformer`).
///
/// For each pixel with colour `Cb` (straight alpha), the tint colour `Cs` with alpha `αs` gives
/// `(1 − αs) · Cb + αs · B(Cb, Cs)` per channel, where `B` is the blend mode's function from the
/// W3C Compositing and Blending specification (channels in 0…1):
///
/// - ``BlendMode/normal``: `Cs` (an opaque tint paints the silhouette in one colour, as template
///   icons want)
/// - ``BlendMode/multiply``: `Cb · Cs` (darkens)
/// - ``BlendMode/screen``: `Cb + Cs − Cb · Cs` (lightens)
/// - ``BlendMode/overlay``: multiply where `Cb ≤ ½` (`2 · Cb · Cs`), screen above
///   (`1 − 2 · (1 − Cb) · (1 − Cs)`): contrast kept, colour cast added
/// - ``BlendMode/darken``: `min(Cb, Cs)`; ``BlendMode/lighten``: `max(Cb, Cs)`
///
/// The image's alpha is kept (the tint is composited "source-atop"); the tint's alpha is its
/// strength. Works per channel through a 256-entry table; the result is in the input's alpha mode.
///
/// ```swift
/// let red = try TintTransformer(color: RGBA8(r: 255, g: 0, b: 0)).transform(icon)
/// let warm = try TintTransformer(color: RGBA8(r: 255, g: 160, b: 60, a: 128), blendMode: .overlay).transform(photo)
/// ```
public struct TintTransformer: ImageTransforming {
    /// How the tint colour combines with the image's colour.
    public enum BlendMode: String, Sendable, CaseIterable {
        case normal, multiply, screen, overlay, darken, lighten

        /// The blend function on 0…1 channels (`backdrop` the image, `source` the tint).
        func blend(_ backdrop: Double, _ source: Double) -> Double {
            switch self {
            case .normal: source
            case .multiply: backdrop * source
            case .screen: backdrop + source - backdrop * source
            case .overlay:
                backdrop <= 0.5 ? 2 * backdrop * source : 1 - 2 * (1 - backdrop) * (1 - source)
            case .darken: min(backdrop, source)
            case .lighten: max(backdrop, source)
            }
        }
    }

    /// The tint colour (straight alpha; its alpha is the tint's strength).
    public let color: RGBA8
    /// How the tint combines with the image.
    public let blendMode: BlendMode

    /// A tint with `color` in `blendMode` (default ``BlendMode/normal``).
    public init(color: RGBA8, blendMode: BlendMode = .normal) {
        self.color = color
        self.blendMode = blendMode
    }

    /// `TintTransformer(#rrggbbaa,mode)`.
    public var key: String { "TintTransformer(\(color.keyHex),\(blendMode.rawValue))" }

    public func transform(_ image: Image) throws -> Image {
        let tables = lookupTables()
        let size = image.animation?.canvasSize ?? image.pixelSize
        return try mapFrames(image, canvasSize: size, orientation: image.orientation, hasAlpha: image.hasAlpha) {
            $0.working(in: .straight) { straight in
                var out = straight
                out.bytes.withUnsafeMutableBufferPointer { p in
                    tables.withUnsafeBufferPointer { t in
                        var i = 0
                        while i < p.count {
                            p[i] = t[Int(p[i])]
                            p[i + 1] = t[256 &+ Int(p[i + 1])]
                            p[i + 2] = t[512 &+ Int(p[i + 2])]
                            i &+= 4
                        }
                    }
                }
                return out
            }
        }
    }

    /// Red, green and blue tables, 256 entries each: the tinted value of every backdrop value.
    func lookupTables() -> [UInt8] {
        let strength = Double(color.a) / 255
        var tables = [UInt8](repeating: 0, count: 768)
        for (channel, source) in [color.r, color.g, color.b].enumerated() {
            let cs = Double(source) / 255
            for value in 0..<256 {
                let cb = Double(value) / 255
                let mixed = (1 - strength) * cb + strength * blendMode.blend(cb, cs)
                tables[channel * 256 + value] = UInt8(min(255, max(0, (mixed * 255).rounded())))
            }
        }
        return tables
    }
}
