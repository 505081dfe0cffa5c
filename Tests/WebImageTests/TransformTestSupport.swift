import WebImage
import WebImageTesting

enum TransformSamples {
    /// Random pixels; opaque unless `alpha`, straight alpha.
    static func random(width: Int, height: Int, seed: UInt64, alpha: Bool = false) -> PixelBuffer {
        var generator = SplitMix64(seed: seed)
        var buffer = PixelBuffer(width: width, height: height, alphaMode: .straight)
        for i in 0..<buffer.bytes.count {
            buffer.bytes[i] = i % 4 == 3 && !alpha ? 255 : UInt8.random(in: 0...255, using: &generator)
        }
        return buffer
    }

    /// Every pixel distinct (for exact geometry checks), opaque.
    static func numbered(width: Int, height: Int) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, alphaMode: .straight)
        for y in 0..<height {
            for x in 0..<width {
                buffer[x, y] = RGBA8(r: UInt8(x & 255), g: UInt8(y & 255), b: UInt8((x * 7 + y * 13) & 255))
            }
        }
        return buffer
    }

    /// The largest per-channel difference between two buffers of one size.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        zip(a.bytes, b.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The mean absolute per-channel difference.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        Double(zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.bytes.count)
    }
}
