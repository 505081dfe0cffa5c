/// Applies a 4×5 colour matrix to every pixel: the colour filters CoreImage would give on Apple
/// platforms, on every platform (SDWebImage's `SDImageFilterTransformer` for the common filters).
///
/// The matrix is row-major, as SVG's `feColorMatrix` and CSS filters define it: channels in 0…1,
/// straight (un-premultiplied) alpha, the fifth column an offset in the same 0…1 units:
///
/// ```
/// R' = m[0]·R + m[1]·G + m[2]·B + m[3]·A + m[4]
/// G' = m[5]·R + …                           + m[9]
/// B' = m[10]·R + …                          + m[14]
/// A' = m[15]·R + …                          + m[19]
/// ```
///
/// The presets are the CSS Filter Effects matrices: ``grayscale(_:)`` (Rec. 709 luma weights),
/// ``sepia(_:)``, ``brightness(_:)`` (multiply), ``contrast(_:)`` (about mid-grey),
/// ``saturation(_:)`` and ``invert(_:)``. Results are rounded to nearest and clamped; the pixel
/// maths is 16-bit fixed point (within half a level of the exact product). The result is in the
/// input's alpha mode.
///
/// ```swift
/// let grey = try ColorMatrixTransformer.grayscale().transform(image)
/// let punchy = try ChainedTransformer([ColorMatrixTransformer.contrast(1.2), ColorMatrixTransformer.saturation(1.3)])
///     .transform(image)
/// ```
public struct ColorMatrixTransformer: ImageTransforming {
    /// The 20 coefficients, row-major.
    public let matrix: [Double]
    /// The preset's name and amount for the key (`nil` for a raw matrix).
    let label: String?

    /// A raw matrix of 20 coefficients (anything else is an ``WebImageError/Code/invalidTransform``
    /// error when applied).
    public init(matrix: [Double]) {
        self.matrix = matrix
        self.label = nil
    }

    private init(matrix: [Double], label: String) {
        self.matrix = matrix
        self.label = label
    }

    /// `ColorMatrixTransformer(name,amount)` for presets, `ColorMatrixTransformer(m0,m1,…,m19)` for a raw matrix.
    public var key: String {
        "ColorMatrixTransformer(\(label ?? matrix.map(keyNumber).joined(separator: ",")))"
    }

    /// Greyscale: `amount` 1 fully grey, 0 unchanged (CSS `grayscale()`).
    public static func grayscale(_ amount: Double = 1) -> ColorMatrixTransformer {
        let a = 1 - min(1, max(0, amount))
        return ColorMatrixTransformer(
            matrix: [
                0.2126 + 0.7874 * a, 0.7152 - 0.7152 * a, 0.0722 - 0.0722 * a, 0, 0,
                0.2126 - 0.2126 * a, 0.7152 + 0.2848 * a, 0.0722 - 0.0722 * a, 0, 0,
                0.2126 - 0.2126 * a, 0.7152 - 0.7152 * a, 0.0722 + 0.9278 * a, 0, 0,
                0, 0, 0, 1, 0,
            ], label: "grayscale,\(keyNumber(amount))")
    }

    /// Sepia tone: `amount` 1 full, 0 unchanged (CSS `sepia()`).
    public static func sepia(_ amount: Double = 1) -> ColorMatrixTransformer {
        let a = 1 - min(1, max(0, amount))
        return ColorMatrixTransformer(
            matrix: [
                0.393 + 0.607 * a, 0.769 - 0.769 * a, 0.189 - 0.189 * a, 0, 0,
                0.349 - 0.349 * a, 0.686 + 0.314 * a, 0.168 - 0.168 * a, 0, 0,
                0.272 - 0.272 * a, 0.534 - 0.534 * a, 0.131 + 0.869 * a, 0, 0,
                0, 0, 0, 1, 0,
            ], label: "sepia,\(keyNumber(amount))")
    }

    /// Brightness: colour multiplied by `factor` (1 unchanged, 0 black; CSS `brightness()`).
    public static func brightness(_ factor: Double) -> ColorMatrixTransformer {
        ColorMatrixTransformer(
            matrix: [factor, 0, 0, 0, 0, 0, factor, 0, 0, 0, 0, 0, factor, 0, 0, 0, 0, 0, 1, 0],
            label: "brightness,\(keyNumber(factor))")
    }

    /// Contrast about mid-grey: `factor` 1 unchanged, 0 flat grey (CSS `contrast()`).
    public static func contrast(_ factor: Double) -> ColorMatrixTransformer {
        let offset = 0.5 - 0.5 * factor
        return ColorMatrixTransformer(
            matrix: [factor, 0, 0, 0, offset, 0, factor, 0, 0, offset, 0, 0, factor, 0, offset, 0, 0, 0, 1, 0],
            label: "contrast,\(keyNumber(factor))")
    }

    /// Saturation: `factor` 1 unchanged, 0 grey, above 1 more vivid (SVG `saturate`).
    public static func saturation(_ factor: Double) -> ColorMatrixTransformer {
        let s = factor
        return ColorMatrixTransformer(
            matrix: [
                0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0, 0,
                0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0, 0,
                0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0, 0,
                0, 0, 0, 1, 0,
            ], label: "saturation,\(keyNumber(factor))")
    }

    /// Inverted colours: `amount` 1 full (each channel `1 − c`), 0 unchanged (CSS `invert()`).
    public static func invert(_ amount: Double = 1) -> ColorMatrixTransformer {
        let a = min(1, max(0, amount))
        let k = 1 - 2 * a
        return ColorMatrixTransformer(
            matrix: [k, 0, 0, 0, a, 0, k, 0, 0, a, 0, 0, k, 0, a, 0, 0, 0, 1, 0], label: "invert,\(keyNumber(amount))")
    }

    public func transform(_ image: Image) throws -> Image {
        guard matrix.count == 20, matrix.allSatisfy({ $0.isFinite && abs($0) < 100 }) else {
            throw WebImageError.invalidTransform(
                "a colour matrix needs 20 finite coefficients below 100 in magnitude (got \(matrix.count))")
        }
        let fixed = Self.fixedPoint(matrix)
        let size = image.animation?.canvasSize ?? image.pixelSize
        let keepsOpaque = !image.hasAlpha && matrix[15...19] == [0, 0, 0, 1, 0]
        let coefficients = fixed
        return try mapFrames(image, canvasSize: size, orientation: image.orientation, hasAlpha: !keepsOpaque) {
            $0.working(in: .straight) { Self.apply(coefficients, to: $0) }
        }
    }

    /// The matrix in fixed point: coefficients in 1/4096 steps, offsets scaled to 0…255 · 4096 with
    /// the rounding half added.
    static func fixedPoint(_ matrix: [Double]) -> [Int32] {
        let one = 4096.0
        var fixed = [Int32](repeating: 0, count: 20)
        for row in 0..<4 {
            for column in 0..<4 { fixed[row * 5 + column] = Int32((matrix[row * 5 + column] * one).rounded()) }
            fixed[row * 5 + 4] = Int32((matrix[row * 5 + 4] * 255 * one).rounded()) + Int32(one / 2)
        }
        return fixed
    }

    /// The fixed-point matrix applied to straight pixels. Matrices that leave alpha alone (the
    /// presets) take a path that computes three channels with the coefficients in registers, and
    /// greyscale (three equal rows) a single dot product per pixel; all paths give the same bytes.
    static func apply(_ m: [Int32], to pixels: PixelBuffer) -> PixelBuffer {
        let keepsAlpha = m[15] == 0 && m[16] == 0 && m[17] == 0 && m[18] == 4096 && m[19] == 2048
            && m[3] == 0 && m[8] == 0 && m[13] == 0
        var out = pixels
        out.bytes.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            let end = base + p.count / 4 * 4
            if keepsAlpha && m[0...4] == m[5...9] && m[0...4] == m[10...14] {
                let (kr, kg, kb, k0) = (m[0], m[1], m[2], m[4])
                var q = base
                while q < end {
                    let y = UInt8(clamping: (kr &* Int32(q[0]) &+ kg &* Int32(q[1]) &+ kb &* Int32(q[2]) &+ k0) &>> 12)
                    q[0] = y
                    q[1] = y
                    q[2] = y
                    q += 4
                }
            } else if keepsAlpha {
                let (m0, m1, m2, m4) = (m[0], m[1], m[2], m[4])
                let (m5, m6, m7, m9) = (m[5], m[6], m[7], m[9])
                let (m10, m11, m12, m14) = (m[10], m[11], m[12], m[14])
                var q = base
                while q < end {
                    let (r, g, b) = (Int32(q[0]), Int32(q[1]), Int32(q[2]))
                    q[0] = UInt8(clamping: (m0 &* r &+ m1 &* g &+ m2 &* b &+ m4) &>> 12)
                    q[1] = UInt8(clamping: (m5 &* r &+ m6 &* g &+ m7 &* b &+ m9) &>> 12)
                    q[2] = UInt8(clamping: (m10 &* r &+ m11 &* g &+ m12 &* b &+ m14) &>> 12)
                    q += 4
                }
            } else {
                m.withUnsafeBufferPointer { m in
                    var q = base
                    while q < end {
                        let (r, g, b, a) = (Int32(q[0]), Int32(q[1]), Int32(q[2]), Int32(q[3]))
                        var k = 0
                        while k < 4 {
                            let row = k &* 5
                            let v = m[row] &* r &+ m[row &+ 1] &* g &+ m[row &+ 2] &* b &+ m[row &+ 3] &* a &+ m[row &+ 4]
                            q[k] = UInt8(clamping: v &>> 12)
                            k &+= 1
                        }
                        q += 4
                    }
                }
            }
        }
        return out
    }
}
