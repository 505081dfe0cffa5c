/// Rotates the displayed image clockwise by any angle in degrees (SDWebImage's
/// `SDImageRotationTransformer`, which takes radians counter-clockwise).
///
/// - Multiples of 90° are exact and lossless: each pixel is moved once through the EXIF
///   orientation kernel (``PixelBuffer/oriented(_:)``), composed with the image's orientation.
/// - Other angles sample bilinearly (on premultiplied pixels, so edges have no dark fringe); the
///   corners the rotation uncovers are transparent, and the edge of the image is anti-aliased by
///   the sampling.
///
/// ``fitsSize`` chooses the canvas: `true` (the default) grows it to the rotated image's bounding
/// box, so nothing is cut; `false` keeps the input's size, centred, cutting the corners. The
/// result is upright (``ImageOrientation/up``), in the input's alpha mode.
///
/// ```swift
/// let tilted = try RotateTransformer(degrees: 30).transform(image)              // larger canvas
/// let turned = try RotateTransformer(degrees: 90).transform(image)              // exact, w and h swapped
/// let same = try RotateTransformer(degrees: -15, fitsSize: false).transform(image)
/// ```
public struct RotateTransformer: ImageTransforming {
    /// The angle, clockwise, in degrees (any finite value; normalised into 0..<360).
    public let degrees: Double
    /// Whether the canvas grows to hold the whole rotated image (default `true`).
    public let fitsSize: Bool
    /// The most pixels the rotated canvas may have; not part of ``key``.
    public let maxPixelCount: Int

    /// A clockwise rotation by `degrees`.
    public init(
        degrees: Double, fitsSize: Bool = true, maxPixelCount: Int = ImageDecodingOptions.defaultMaxPixelCount
    ) {
        self.degrees = degrees
        self.fitsSize = fitsSize
        self.maxPixelCount = maxPixelCount
    }

    /// The angle in 0..<360.
    var normalizedDegrees: Double {
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        return turned < 0 ? turned + 360 : turned
    }

    /// `RotateTransformer(DEG,fit)` or `RotateTransformer(DEG,keep)`, the angle normalised into
    /// 0..<360 (so -90 and 270 share a key).
    public var key: String { "RotateTransformer(\(keyNumber(normalizedDegrees)),\(fitsSize ? "fit" : "keep"))" }

    public func transform(_ image: Image) throws -> Image {
        guard degrees.isFinite else { throw WebImageError.invalidTransform("rotation angle \(degrees) is not finite") }
        let angle = normalizedDegrees
        if angle.truncatingRemainder(dividingBy: 90) == 0 {
            return try rotateByQuarterTurns(image, Int(angle / 90))
        }
        let (fits, limit) = (fitsSize, maxPixelCount)
        let stored = image.animation?.canvasSize ?? image.pixelSize
        let upright =
            image.orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        let canvas = fits ? Self.boundingSize(of: upright, degrees: angle) : upright
        try PixelBuffer.checkSize(canvas, maxPixelCount: limit)
        return try mapUprightFrames(image, hasAlpha: true, canvasSize: { _ in canvas }) { pixels in
            let target = fits ? Self.boundingSize(of: pixels.size, degrees: angle) : pixels.size
            try PixelBuffer.checkSize(target, maxPixelCount: limit)
            return pixels.working(in: .premultiplied) { $0.rotatedBilinear(degrees: angle, canvas: target) }
        }
    }

    /// Exact rotation by `turns` quarter turns clockwise; without ``fitsSize`` a turn that swaps
    /// the sides is centred on the original size (cut or padded with transparency).
    private func rotateByQuarterTurns(_ image: Image, _ turns: Int) throws -> Image {
        let turn = ImageOrientation.clockwise(quarterTurns: turns)
        guard turn != .up || image.orientation != .up else { return image }
        if fitsSize || !turn.swapsDimensions {
            return try mapUprightFrames(image, reorienting: turn, hasAlpha: image.hasAlpha, canvasSize: { $0 }) { $0 }
        }
        let stored = image.animation?.canvasSize ?? image.pixelSize
        let upright =
            image.orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        let square = upright.width == upright.height
        return try mapUprightFrames(
            image, reorienting: turn, hasAlpha: image.hasAlpha || !square,
            canvasSize: { PixelSize(width: $0.height, height: $0.width) }
        ) { turned in
            turned.centred(on: PixelSize(width: turned.height, height: turned.width))
        }
    }

    /// The bounding box of a `size` image rotated by `degrees` (rounded up; exact sides stay exact).
    static func boundingSize(of size: PixelSize, degrees: Double) -> PixelSize {
        let radians = degrees * .pi / 180
        let (c, s) = (abs(cos(radians)), abs(sin(radians)))
        let (w, h) = (Double(size.width), Double(size.height))
        // The tolerance keeps an exact side from growing by float error (cos 60° is 0.5000000000000001).
        let width = (w * c + h * s - 1e-9).rounded(.up)
        let height = (w * s + h * c - 1e-9).rounded(.up)
        guard width.isFinite, height.isFinite, width < 1e9, height < 1e9 else {
            return PixelSize(width: Int.max / 8, height: Int.max / 8)
        }
        return PixelSize(width: max(1, Int(width)), height: max(1, Int(height)))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
