import Foundation
import Testing
@testable import WebImage

@Suite("Gaussian blur and sharpen")
struct BlurTransformerTests {
    @Test("A flat image stays exactly flat (and so keeps its mean), for small and very large sigma")
    func flat() throws {
        let colour = RGBA8(r: 200, g: 17, b: 99, a: 255)
        let flat = PixelBuffer(width: 37, height: 23, alphaMode: .straight, fill: colour)
        for sigma in [0.5, 1, 3.3, 10, 150, 2000] {
            let out = try GaussianBlurTransformer(sigma: sigma).transform(Image(pixels: flat)).pixels
            #expect(out == flat, "sigma \(sigma)")
        }
    }

    @Test("The mean of a random image is kept within one level (edges extend, so not exactly)")
    func mean() throws {
        let source = TransformSamples.random(width: 128, height: 96, seed: 41)
        let out = try GaussianBlurTransformer(sigma: 4).transform(Image(pixels: source)).pixels
        for channel in 0..<3 {
            let before = stride(from: channel, to: source.bytes.count, by: 4).reduce(0) { $0 + Int(source.bytes[$1]) }
            let after = stride(from: channel, to: out.bytes.count, by: 4).reduce(0) { $0 + Int(out.bytes[$1]) }
            #expect(abs(Double(before - after)) / Double(128 * 96) < 1)
        }
    }

    @Test(
        "The row-by-row vertical passes give the strips' pixels exactly",
        arguments: [(1, 1, 4.0), (3, 200, 4.0), (70, 5, 10.0), (131, 97, 10.0), (64, 300, 33.0), (9, 2, 60.0)])
    func rowsMatchStrips(width: Int, height: Int, sigma: Double) throws {
        let source = TransformSamples.random(width: width, height: height, seed: UInt64(width * 31 + height)).premultiplied()
        guard case .boxes(let radii) = BoxBlur.Plan(sigma: sigma) else {
            Issue.record("σ \(sigma) should use boxes")
            return
        }
        let total = radii.reduce(Int64(1)) { $0 * Int64(2 * $1 + 1) }
        #expect(BoxBlur.rowsFit(width: width, radii: radii))
        var rows = PixelBuffer(width: width, height: height, alphaMode: .premultiplied)
        var strips = rows
        BoxBlur.verticalRows(source, into: &rows, radii: radii, total: total)
        BoxBlur.verticalPasses(source, into: &strips, plan: .boxes(radii), exact: true, total: total)
        #expect(rows == strips, "\(width)×\(height) σ \(sigma)")
    }

    @Test("Box widths give the asked variance within 9 % from σ = 4 up")
    func variance() {
        for sigma in [4, 4.5, 6, 10, 47.3, 300] {
            let radii = BoxBlur.radii(sigma: sigma)
            // A box of width w has variance (w² − 1) / 12; variances add.
            let variance = radii.reduce(0.0) { $0 + (pow(Double(2 * $1 + 1), 2) - 1) / 12 }
            #expect(abs(variance - sigma * sigma) / (sigma * sigma) < 0.09, "sigma \(sigma): \(radii)")
        }
    }

    @Test("Small sigma (a sampled Gaussian kernel) matches a true Gaussian within one level", arguments: [0.7, 1.5, 3])
    func smallAgainstGaussian(sigma: Double) throws {
        for source in [TransformSamples.random(width: 60, height: 40, seed: 43), Self.edges(width: 60, height: 40)] {
            let fast = try GaussianBlurTransformer(sigma: sigma).transform(Image(pixels: source)).pixels
            let reference = Self.gaussian(source, sigma: sigma)
            #expect(TransformSamples.maxDifference(fast, reference) <= 1)
            #expect(TransformSamples.meanDifference(fast, reference) <= 0.2)
        }
    }

    @Test(
        "Three boxes against a true Gaussian: noise (the worst case) within 24 levels, 0.5 on average; edges within 3, 0.3",
        arguments: [4.5, 7, 10])
    func boxesAgainstGaussian(sigma: Double) throws {
        let cases = [
            (TransformSamples.random(width: 160, height: 120, seed: 43), 24, 0.5),
            (Self.edges(width: 240, height: 180), 3, 0.3),
        ]
        for (source, worstBound, meanBound) in cases {
            let fast = try GaussianBlurTransformer(sigma: sigma).transform(Image(pixels: source)).pixels
            let reference = Self.gaussian(source, sigma: sigma)
            let (worst, mean) = (TransformSamples.maxDifference(fast, reference), TransformSamples.meanDifference(fast, reference))
            print("blur sigma \(sigma): max \(worst) levels, mean \(mean)")
            #expect(worst <= worstBound)
            #expect(mean <= meanBound)
        }
    }

    @Test("Translucent input: blurred premultiplied and returned in its own mode")
    func alpha() throws {
        var source = PixelBuffer(width: 20, height: 1, alphaMode: .straight)
        for x in 0..<10 { source[x, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255) }
        let out = try GaussianBlurTransformer(sigma: 2).transform(Image(pixels: source)).pixels
        #expect(out.alphaMode == .straight)
        // No dark fringe: where alpha is partial, the colour is still pure red.
        for x in 8..<14 where out[x, 0].a > 20 { #expect(out[x, 0].r >= 250, "\(out[x, 0])") }
        #expect(throws: WebImageError.self) { try GaussianBlurTransformer(sigma: -1).transform(Image(pixels: source)) }
        #expect(throws: WebImageError.self) { try GaussianBlurTransformer(sigma: .infinity).transform(Image(pixels: source)) }
    }

    @Test("Unsharp mask: a flat image is unchanged, an edge gains contrast, the threshold skips small differences")
    func sharpen() throws {
        let flat = PixelBuffer(width: 16, height: 16, alphaMode: .straight, fill: RGBA8(r: 90, g: 90, b: 90))
        #expect(try SharpenTransformer(sigma: 1.5, amount: 2).transform(Image(pixels: flat)).pixels == flat)
        var step = PixelBuffer(width: 30, height: 4, alphaMode: .straight, fill: RGBA8(r: 64, g: 64, b: 64))
        for y in 0..<4 { for x in 15..<30 { step[x, y] = RGBA8(r: 192, g: 192, b: 192) } }
        let out = try SharpenTransformer(sigma: 1, amount: 1).transform(Image(pixels: step)).pixels
        // Overshoot on both sides of the step at x = 15; far from it, unchanged.
        #expect(out[14, 2].r < 64)
        #expect(out[15, 2].r > 192)
        #expect(out[2, 2] == step[2, 2] && out[28, 2] == step[28, 2])
        let gentle = TransformSamples.random(width: 20, height: 20, seed: 2)
        var low = gentle
        for i in 0..<low.bytes.count where i % 4 != 3 { low.bytes[i] = 100 + low.bytes[i] % 3 }
        #expect(try SharpenTransformer(sigma: 1, amount: 1, threshold: 5).transform(Image(pixels: low)).pixels == low)
    }

    /// Black left half, white right half, a grey square: hard edges where box and Gaussian differ most.
    static func edges(width: Int, height: Int) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, alphaMode: .straight, fill: .black)
        for y in 0..<height { for x in width / 2..<width { buffer[x, y] = .white } }
        for y in height / 4..<height / 2 { for x in width / 8..<width / 4 { buffer[x, y] = RGBA8(r: 128, g: 128, b: 128) } }
        return buffer
    }

    /// A true separable Gaussian (kernel to ±4σ, normalised), edges extended, in floating point.
    static func gaussian(_ source: PixelBuffer, sigma: Double) -> PixelBuffer {
        let radius = Int((4 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let (w, h) = (source.width, source.height)
        var rows = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0.0
                    for k in -radius...radius {
                        sum += kernel[k + radius] * Double(source.bytes[(y * w + min(max(x + k, 0), w - 1)) * 4 + c])
                    }
                    rows[(y * w + x) * 4 + c] = sum
                }
            }
        }
        var out = source
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0.0
                    for k in -radius...radius { sum += kernel[k + radius] * rows[(min(max(y + k, 0), h - 1) * w + x) * 4 + c] }
                    out.bytes[(y * w + x) * 4 + c] = UInt8(min(255, max(0, sum.rounded())))
                }
            }
        }
        return out
    }
}
