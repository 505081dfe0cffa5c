/// Draws another image over this one, source-over, at a gravity or a position, with an opacity:
/// watermarks, badges, frames.
///
/// The overlay is drawn at its own pixel size, or at a ``scale`` of the image's width, clipped to
/// the image; ``Placement/tiled(spacingX:spacingY:)`` repeats it over the whole image.
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
        /// At a gravity, moved `x` and `y` pixels: inwards from each edge it touches, right and
        /// down along a centred axis (imgproxy's watermark offsets).
        case offset(ImageGravity, x: Int, y: Int)
        /// Repeated from the top-left corner over the whole image, `spacingX` and `spacingY`
        /// pixels apart (imgproxy's `re`, replicate); negative spacings count as 0.
        case tiled(spacingX: Int, spacingY: Int)
    }

    /// The overlay's upright pixels.
    public let overlay: PixelBuffer
    /// Where it goes.
    public let placement: Placement
    /// 0 (invisible) … 1 (as the overlay's own alpha says).
    public let opacity: Double
    /// The overlay's width as a fraction of the image's (its aspect ratio kept); 0 (the default)
    /// draws it at its own size.
    public let scale: Double
    private let overlayID: String

    /// `overlay` drawn at `placement` with `opacity`, at `scale` of the image's width (0: its own size).
    public init(overlay: Image, placement: Placement = .gravity(.center), opacity: Double = 1, scale: Double = 0) {
        let pixels = overlay.pixels.oriented(overlay.orientation).premultiplied()
        self.overlay = pixels
        self.placement = placement
        self.opacity = opacity
        self.scale = scale
        let crc = pixels.bytes.withUnsafeBytes { CRC32.checksum($0) }
        self.overlayID = String(crc, radix: 16) + ",\(pixels.width)x\(pixels.height)"
    }

    /// `CompositeTransformer(crc32,WxH,placement,opacity)`, with `,xSCALE` when ``scale`` is set.
    public var key: String {
        let place =
            switch placement {
            case .gravity(let gravity, let inset): "\(gravity.rawValue)+\(inset)"
            case .position(let x, let y): "\(x),\(y)"
            case .offset(let gravity, let x, let y): "\(gravity.rawValue)+\(x)+\(y)"
            case .tiled(let x, let y): "tiled+\(x)+\(y)"
            }
        let scaled = scale > 0 ? ",x\(keyNumber(scale))" : ""
        return "CompositeTransformer(\(overlayID),\(place),\(keyNumber(opacity))\(scaled))"
    }

    public func transform(_ image: Image) throws -> Image {
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw WebImageError.invalidTransform("overlay opacity \(opacity) must be between 0 and 1")
        }
        guard scale.isFinite, scale >= 0 else {
            throw WebImageError.invalidTransform("overlay scale \(scale) must be 0 or more")
        }
        let (overlay, placement, scale) = (self.overlay, self.placement, self.scale)
        let gain = UInt32((opacity * 256).rounded())
        return try mapUprightFrames(image, hasAlpha: image.hasAlpha, canvasSize: { $0 }) { base in
            let drawn = Self.scaled(overlay, toWidthOf: base.size, scale: scale)
            let origins = Self.origins(of: drawn.size, in: base.size, placement: placement)
            return base.working(in: .premultiplied) { canvas in
                origins.reduce(canvas) { Self.draw(drawn, over: $0, at: $1, gain: gain) }
            }
        }
    }

    /// `overlay` resampled to `scale` of `container`'s width, its aspect ratio kept (unchanged for 0).
    static func scaled(_ overlay: PixelBuffer, toWidthOf container: PixelSize, scale: Double) -> PixelBuffer {
        guard scale > 0, overlay.width > 0 else { return overlay }
        let width = max(1, min(container.width * 4, Int((Double(container.width) * scale).rounded())))
        let height = max(1, Int((Double(overlay.height) * Double(width) / Double(overlay.width)).rounded()))
        guard width != overlay.width || height != overlay.height else { return overlay }
        return Resampler.resample(overlay, to: PixelSize(width: width, height: height), filter: .lanczos3)
    }

    /// The top-left corners the overlay of `size` is drawn at in `container`.
    static func origins(of size: PixelSize, in container: PixelSize, placement: Placement) -> [(x: Int, y: Int)] {
        switch placement {
        case .gravity(let gravity, let inset):
            let rect = gravity.place(size, in: container, inset: (inset, inset))
            return [(rect.x, rect.y)]
        case .position(let x, let y):
            return [(x, y)]
        case .offset(let gravity, let x, let y):
            let rect = gravity.place(size, in: container, inset: (x, y))
            // `place` ignores the inset along a centred axis: there the offset moves right and down.
            let centredX = [.center, .north, .south].contains(gravity)
            let centredY = [.center, .west, .east].contains(gravity)
            return [(rect.x + (centredX ? x : 0), rect.y + (centredY ? y : 0))]
        case .tiled(let spacingX, let spacingY):
            guard size.width > 0, size.height > 0 else { return [] }
            let stepX = size.width + max(0, spacingX)
            let stepY = size.height + max(0, spacingY)
            return stride(from: 0, to: container.height, by: stepY).flatMap { y in
                stride(from: 0, to: container.width, by: stepX).map { x in (x, y) }
            }
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
