public import WebImage

/// A looping animation of a moving 216-colour pattern (5 px right, 3 px down per frame), made on
/// demand so that generating it holds one canvas at a time: the player's memory probe and its
/// benchmark encode it as a GIF.
///
/// ```swift
/// let source = PatternFrames(count: 100, side: 500, duration: 0.1)
/// let animated = Image(pixels: try source.frame(at: 0).pixels, animation: source)
/// ```
public struct PatternFrames: AnimatedImageSource {
    public let frameCount: Int
    /// The side of the square canvas, in pixels.
    public let side: Int
    /// Every frame's duration, in seconds.
    public let durationEach: Double

    /// `count` frames of `side`×`side` pixels, each shown for `duration` seconds.
    public init(count: Int, side: Int, duration: Double) {
        frameCount = count
        self.side = side
        durationEach = duration
    }

    public var loopCount: Int { 0 }
    public var canvasSize: PixelSize { PixelSize(width: side, height: side) }
    public func duration(at index: Int) -> Double { durationEach }

    public func frame(at t: Int) throws -> AnimationFrame {
        let side = side
        let pixels = PixelBuffer(width: side, height: side, alphaMode: .straight) { out in
            for y in 0..<side {
                for x in 0..<side {
                    let i = (y * side + x) * 4
                    let u = (x + t * 5) / 20, v = (y + t * 3) / 20
                    out[i] = UInt8((u % 6) * 51)
                    out[i + 1] = UInt8((v % 6) * 51)
                    out[i + 2] = UInt8(((u + v) % 6) * 51)
                    out[i + 3] = 255
                }
            }
        }
        return AnimationFrame(pixels: pixels, duration: durationEach)
    }
}
