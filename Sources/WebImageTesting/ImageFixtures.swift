public import WebImage

/// Deterministic generated images for tests: every project fixture is made here or by our encoders.
///
/// ```swift
/// let pixels = ImageFixtures.gradient(width: 64, height: 48)
/// ```
public enum ImageFixtures {
    /// A smooth RGB gradient with a diagonal pattern, opaque (good for lossy round trips).
    ///
    /// Fixtures default to straight alpha, like decoded images.
    public static func gradient(width: Int, height: Int, alphaMode: AlphaMode = .straight) -> PixelBuffer {
        PixelBuffer(width: width, height: height, alphaMode: alphaMode) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8(x * 255 / max(1, width - 1))
                    out[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    out[i + 2] = UInt8((x + y) * 255 / max(1, width + height - 2))
                    out[i + 3] = 255
                }
            }
        }
    }

    /// A gradient whose alpha falls from 255 (left) to 0 (right), in straight alpha, converted to
    /// `alphaMode`.
    public static func translucentGradient(width: Int, height: Int, alphaMode: AlphaMode = .straight)
        -> PixelBuffer
    {
        var pixels = gradient(width: width, height: height, alphaMode: .straight)
        for y in 0..<height {
            for x in 0..<width {
                pixels.bytes[(y * width + x) * 4 + 3] = UInt8(255 - x * 255 / max(1, width - 1))
            }
        }
        return pixels.converted(to: alphaMode)
    }

    /// A frame of solid colour with a square of another colour at a position that moves with
    /// `index`: a simple animation frame whose content is easy to check (opaque, straight alpha).
    public static func movingSquare(index: Int, width: Int = 32, height: Int = 32, square: Int = 8) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height, alphaMode: .straight, fill: RGBA8(r: 0, g: 0, b: 255))
        let origin = (index * square) % max(1, width - square + 1)
        for y in 0..<min(square, height) {
            for x in origin..<min(origin + square, width) {
                pixels[x, y] = RGBA8(r: 255, g: 0, b: 0)
            }
        }
        return pixels
    }

    /// An animated image of `count` moving-square frames, each shown `duration` seconds.
    public static func animation(frames count: Int, duration: Double = 0.1, loopCount: Int = 0) -> Image {
        let frames = (0..<count).map { AnimationFrame(pixels: movingSquare(index: $0), duration: duration) }
        return Image(pixels: frames[0].pixels, animation: InMemoryAnimation(frames: frames, loopCount: loopCount))
    }

    /// The mean absolute difference per channel between two same-sized buffers.
    public static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        var total = 0
        for i in 0..<a.bytes.count { total += abs(Int(a.bytes[i]) - Int(b.bytes[i])) }
        return Double(total) / Double(max(1, a.bytes.count))
    }

    /// The largest absolute difference of any channel between two same-sized buffers.
    public static func maxAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.size == b.size, "sizes differ: \(a.size) vs \(b.size)")
        var worst = 0
        for i in 0..<a.bytes.count { worst = max(worst, abs(Int(a.bytes[i]) - Int(b.bytes[i]))) }
        return worst
    }
}
