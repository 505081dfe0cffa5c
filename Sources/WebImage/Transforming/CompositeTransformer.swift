/// Draws another image over this one, source-over, at a gravity or a position, with an opacity:
/// watermarks, badges, frames.
///
/// The overlay is drawn at its own pixel size (resize it first if needed), clipped to the image.
/// Compositing is premultiplied (`out = overlay · opacity + image · (1 − overlayAlpha · opacity)`),
/// in 8-bit fixed point; the result is upright (the base image's orientation applied, so that
/// positions are in displayed pixels) and in the input's alpha mode. The overlay's EXIF
/// orientation is applied first; an animated overlay contributes its first frame.
///
/// The key names the overlay by a CRC-32 of its pixels and its size, so two different overlays
/// never share a cache entry.
///
/// ```swift
/// let marked = try CompositeTransformer(overlay: logo, placement: .gravity(.southEast, inset: 16), opacity: 0.6)
///     .transform(photo)
/// ```
public struct CompositeTransformer: ImageTransforming {
    /// Where the overlay goes.
    public enum Placement: Hashable, Sendable {
        /// At a gravity, `inset` pixels in from the edges it touches.
        case gravity(ImageGravity, inset: Int = 0)
        /// With its top-left corner at (x, y) in the image (may be negative or past the edges).
        case position(x: Int, y: Int)
    }

    /// The overlay's upright pixels.
    public let overlay: PixelBuffer
    /// Where it goes.
    public let placement: Placement
    /// 0 (invisible) … 1 (as the overlay's own alpha says).
    public let opacity: Double
    private let overlayID: String

    /// `overlay` drawn at `placement` with `opacity`.
    public init(overlay: Image, placement: Placement = .gravity(.center), opacity: Double = 1) {
        let pixels = overlay.pixels.oriented(overlay.orientation).premultiplied()
        self.overlay = pixels
        self.placement = placement
        self.opacity = opacity
        let crc = pixels.bytes.withUnsafeBytes { CRC32.checksum($0) }
        self.overlayID = String(crc, radix: 16) + ",\(pixels.width)x\(pixels.height)"
    }

    /// `CompositeTransformer(crc32,WxH,placement,opacity)`.
    public var key: String {
        let place =
            switch placement {
            case .gravity(let gravity, let inset): "\(gravity.rawValue)+\(inset)"
            case .position(let x, let y): "\(x),\(y)"
            }
        return "CompositeTransformer(\(overlayID),\(place),\(keyNumber(opacity)))"
    }

    public func transform(_ image: Image) throws -> Image {
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw WebImageError.invalidTransform("overlay opacity \(opacity) must be between 0 and 1")
        }
        let (overlay, placement) = (self.overlay, self.placement)
        let gain = UInt32((opacity * 256).rounded())
        return try mapUprightFrames(image, hasAlpha: image.hasAlpha, canvasSize: { $0 }) { base in
            let origin: (x: Int, y: Int)
            switch placement {
            case .gravity(let gravity, let inset):
                let rect = gravity.place(overlay.size, in: base.size, inset: (inset, inset))
                origin = (rect.x, rect.y)
            case .position(let x, let y):
                origin = (x, y)
            }
            return base.working(in: .premultiplied) { Self.draw(overlay, over: $0, at: origin, gain: gain) }
        }
    }

    /// `overlay` (premultiplied) composited over `base` (premultiplied) with its top-left at
    /// `origin`, scaled by `gain`/256.
    static func draw(_ overlay: PixelBuffer, over base: PixelBuffer, at origin: (x: Int, y: Int), gain: UInt32)
        -> PixelBuffer
    {
        var out = base
        let x0 = max(0, origin.x)
        let y0 = max(0, origin.y)
        let x1 = min(base.width, origin.x + overlay.width)
        let y1 = min(base.height, origin.y + overlay.height)
        guard x0 < x1, y0 < y1, gain > 0 else { return out }
        out.bytes.withUnsafeMutableBufferPointer { dst in
            overlay.bytes.withUnsafeBufferPointer { src in
                for y in y0..<y1 {
                    var d = (y &* base.width &+ x0) &* 4
                    var s = ((y &- origin.y) &* overlay.width &+ (x0 &- origin.x)) &* 4
                    for _ in x0..<x1 {
                        let alpha = (UInt32(src[s &+ 3]) &* gain &+ 128) >> 8
                        if alpha > 0 {
                            let keep = 255 &- alpha
                            for c in 0..<4 {
                                let top = (UInt32(src[s &+ c]) &* gain &+ 128) >> 8
                                let t = UInt32(dst[d &+ c]) &* keep &+ 128
                                dst[d &+ c] = UInt8(min(255, top &+ ((t &+ (t >> 8)) >> 8)))
                            }
                        }
                        d &+= 4
                        s &+= 4
                    }
                }
            }
        }
        return out
    }
}
