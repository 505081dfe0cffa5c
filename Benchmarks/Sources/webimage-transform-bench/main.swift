import Foundation
import WebImage

// `webimage-transform-bench [WIDTHxHEIGHT] [ITERATIONS]`: times the pixel transformers on one
// thread on a generated photo-like image (default 4000×3000, 12 MP) and prints, per transform,
// `name median_ms=… mpx_per_s=…`, the lines transform-compare.sh reads.

let arguments = Array(CommandLine.arguments.dropFirst())
let dimensions = (arguments.first ?? "4000x3000").split(separator: "x").compactMap { Int($0) }
let (width, height) = (dimensions.count == 2 ? dimensions[0] : 4000, dimensions.count == 2 ? dimensions[1] : 3000)
let iterations = arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5

// Smooth gradients plus a deterministic texture: content does not change these kernels' cost.
let pixels = PixelBuffer(width: width, height: height, alphaMode: .straight) { out in
    var state: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let noise = UInt8(truncatingIfNeeded: state >> 27)
            let i = (y * width + x) * 4
            out[i] = UInt8(truncatingIfNeeded: x * 255 / width) &+ noise
            out[i + 1] = UInt8(truncatingIfNeeded: y * 255 / height) &+ noise
            out[i + 2] = UInt8(truncatingIfNeeded: (x + y) & 255)
            out[i + 3] = 255
        }
    }
}
let image = Image(pixels: pixels)

let workloads: [(String, any ImageTransforming)] = [
    ("blur-sigma10", GaussianBlurTransformer(sigma: 10)),
    ("blur-sigma2", GaussianBlurTransformer(sigma: 2)),
    ("sharpen", SharpenTransformer()),
    ("rotate-90", RotateTransformer(degrees: 90)),
    ("rotate-17", RotateTransformer(degrees: 17)),
    ("flip-h", FlipTransformer(horizontal: true)),
    ("grayscale", ColorMatrixTransformer.grayscale()),
    ("tint-multiply", TintTransformer(color: RGBA8(r: 255, g: 128, b: 0), blendMode: .multiply)),
    ("round-corner-64", RoundCornerTransformer(radius: 64)),
    ("attention-crop", GravityCropTransformer(size: PixelSize(width: width / 2, height: height / 2), anchor: .attention)),
]

let only = ProcessInfo.processInfo.environment["ONLY"]
for (name, transformer) in workloads where only == nil || only == name {
    _ = try transformer.transform(image)  // warm-up
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = ContinuousClock.now
        _ = try transformer.transform(image)
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    samples.sort()
    let median = samples[samples.count / 2]
    print(String(format: "%@ median_ms=%.2f mpx_per_s=%.1f", name, median, Double(width * height) / 1e6 / (median / 1000)))
}
