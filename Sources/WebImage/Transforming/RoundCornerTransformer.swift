/// Rounds the corners of the displayed image, with an optional border; or cuts a circle
/// (SDWebImage's `SDImageRoundCornerTransformer`).
///
/// Outside the rounded rectangle pixels become transparent; the edge is anti-aliased (each edge
/// pixel keeps the fraction of its area inside the curve, to within a pixel-wide linear ramp of
/// the signed distance). The border, when ``borderWidth`` > 0, is drawn inside the edge, over the
/// image, following the same curve (its inner radius is `radius − borderWidth`). Pixels away from
/// the corners and the border are left exactly as they were, in either alpha mode.
///
/// ``circle(borderWidth:borderColor:)`` first crops the displayed image to its centred square,
/// then rounds it with half the side as radius.
///
/// The result is upright (the image's orientation applied), in the input's alpha mode.
///
/// ```swift
/// let card = try RoundCornerTransformer(radius: 16).transform(image)
/// let avatar = try RoundCornerTransformer.circle(borderWidth: 2, borderColor: .white).transform(image)
/// let tab = try RoundCornerTransformer(radius: 8, corners: [.topLeft, .topRight]).transform(image)
/// ```
public struct RoundCornerTransformer: ImageTransforming {
    /// Which corners are rounded.
    public struct Corners: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let topLeft = Corners(rawValue: 1)
        public static let topRight = Corners(rawValue: 2)
        public static let bottomLeft = Corners(rawValue: 4)
        public static let bottomRight = Corners(rawValue: 8)
        public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]
    }

    /// The corner radius in pixels (clamped to half the shorter side); ignored for circles.
    public let radius: Double
    /// Which corners are rounded (the others stay square).
    public let corners: Corners
    /// The border's width in pixels (0: no border).
    public let borderWidth: Double
    /// The border's colour (straight alpha).
    public let borderColor: RGBA8
    /// Whether the image is cropped to its centred square and cut as a circle.
    public let isCircle: Bool

    /// Rounded corners of `radius` pixels, with an optional border inside the edge.
    public init(radius: Double, corners: Corners = .all, borderWidth: Double = 0, borderColor: RGBA8 = .black) {
        self.init(radius: radius, corners: corners, borderWidth: borderWidth, borderColor: borderColor, isCircle: false)
    }

    private init(radius: Double, corners: Corners, borderWidth: Double, borderColor: RGBA8, isCircle: Bool) {
        self.radius = radius
        self.corners = corners
        self.borderWidth = borderWidth
        self.borderColor = borderColor
        self.isCircle = isCircle
    }

    /// The centred square of the image cut as a circle, with an optional border.
    public static func circle(borderWidth: Double = 0, borderColor: RGBA8 = .black) -> RoundCornerTransformer {
        RoundCornerTransformer(radius: 0, corners: .all, borderWidth: borderWidth, borderColor: borderColor, isCircle: true)
    }

    /// `RoundCornerTransformer(R,corners,BORDER,#rrggbbaa)`, or `RoundCornerTransformer(circle,BORDER,#rrggbbaa)`.
    public var key: String {
        let border = "\(keyNumber(borderWidth)),\(borderColor.keyHex)"
        if isCircle { return "RoundCornerTransformer(circle,\(border))" }
        return "RoundCornerTransformer(\(keyNumber(radius)),\(corners.rawValue),\(border))"
    }

    public func transform(_ image: Image) throws -> Image {
        guard radius.isFinite, radius >= 0 else {
            throw WebImageError.invalidTransform("corner radius \(radius) must be a finite number ≥ 0")
        }
        guard borderWidth.isFinite, borderWidth >= 0 else {
            throw WebImageError.invalidTransform("border width \(borderWidth) must be a finite number ≥ 0")
        }
        let shape = self
        let square: (PixelSize) -> PixelSize = { size in
            let side = min(size.width, size.height)
            return PixelSize(width: side, height: side)
        }
        return try mapUprightFrames(image, hasAlpha: true, canvasSize: isCircle ? square : { $0 }) { upright in
            var pixels = upright
            if shape.isCircle {
                let side = min(upright.width, upright.height)
                pixels = try upright.cropped(
                    to: PixelRect(x: (upright.width - side) / 2, y: (upright.height - side) / 2, width: side, height: side))
            }
            shape.clip(&pixels)
            return pixels
        }
    }

    /// Signed distance from (px, py) to a rectangle inset by `inset` on each side with corners of
    /// `radius` where selected: negative inside.
    private func signedDistance(_ px: Double, _ py: Double, _ size: (Double, Double), inset: Double, radius: Double)
        -> Double
    {
        let (w, h) = size
        let left = px < w / 2
        let top = py < h / 2
        let corner: Corners = top ? (left ? .topLeft : .topRight) : (left ? .bottomLeft : .bottomRight)
        let r = corners.contains(corner) ? radius : 0
        let dx = left ? inset + r - px : px - (w - inset - r)
        let dy = top ? inset + r - py : py - (h - inset - r)
        if dx > 0 && dy > 0 { return (dx * dx + dy * dy).squareRoot() - r }
        return max(dx, dy) - r
    }

    /// Clears what lies outside the shape and draws the border, touching only the pixels near the
    /// edge and the corners.
    private func clip(_ pixels: inout PixelBuffer) {
        let (w, h) = (pixels.width, pixels.height)
        let size = (Double(w), Double(h))
        let r = isCircle ? Double(min(w, h)) / 2 : min(radius, Double(min(w, h)) / 2)
        let border = min(borderWidth, Double(min(w, h)) / 2)
        let innerRadius = max(0, r - border)
        let band = Int(max(r, border).rounded(.up)) + 1
        let straight = pixels.alphaMode == .straight
        let ink = (
            Double(borderColor.r) / 255, Double(borderColor.g) / 255, Double(borderColor.b) / 255,
            Double(borderColor.a) / 255
        )
        pixels.bytes.withUnsafeMutableBufferPointer { p in
            for y in 0..<h {
                let nearRow = y < band || y >= h - band
                var x = 0
                while x < w {
                    if !nearRow && x == band && w - band > band {
                        x = w - band  // the middle of the row is inside the shape and the border
                        continue
                    }
                    let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
                    let outer = min(1, max(0, 0.5 - signedDistance(cx, cy, size, inset: 0, radius: r)))
                    let inner =
                        border > 0
                        ? min(1, max(0, 0.5 - signedDistance(cx, cy, size, inset: border, radius: innerRadius))) : outer
                    if outer < 1 || inner < 1 {
                        let i = (y * w + x) * 4
                        // Premultiplied 0...1 values of this pixel.
                        let a = Double(p[i + 3]) / 255
                        let k = straight ? a / 255 : 1.0 / 255
                        var colour = (Double(p[i]) * k, Double(p[i + 1]) * k, Double(p[i + 2]) * k, a)
                        let ring = max(0, outer - inner)
                        let under = 1 - ink.3 * ring
                        // The image clipped to the outer shape, the border ring composited over it.
                        colour.0 = colour.0 * outer * under + ink.0 * ink.3 * ring
                        colour.1 = colour.1 * outer * under + ink.1 * ink.3 * ring
                        colour.2 = colour.2 * outer * under + ink.2 * ink.3 * ring
                        colour.3 = colour.3 * outer * under + ink.3 * ring
                        Self.store(colour, straight: straight, into: p, at: i)
                    }
                    x += 1
                }
            }
        }
    }

    /// Writes a premultiplied 0...1 colour in the buffer's alpha mode.
    private static func store(
        _ c: (Double, Double, Double, Double), straight: Bool, into p: UnsafeMutableBufferPointer<UInt8>, at i: Int
    ) {
        let alpha = UInt8((c.3 * 255).rounded())
        p[i + 3] = alpha
        let scale = straight ? (c.3 > 0 ? 255 / c.3 : 0) : 255
        @inline(__always) func channel(_ value: Double) -> UInt8 {
            let v = UInt8(min(255, max(0, (value * scale).rounded())))
            return straight ? v : min(v, alpha)
        }
        p[i] = channel(c.0)
        p[i + 1] = channel(c.1)
        p[i + 2] = channel(c.2)
    }
}
