import Testing
import WebImageTesting

@testable import WebImage

/// The fast kernels (SIMD passes, box reduction) against slow, obvious versions of the same
/// arithmetic on random images: within ±1 (they are in fact exact).
@Suite("Resampler kernels")
struct ResamplerKernelTests {
    static let sizes: [(source: PixelSize, target: PixelSize)] = [
        (PixelSize(width: 97, height: 61), PixelSize(width: 31, height: 17)),
        (PixelSize(width: 97, height: 61), PixelSize(width: 197, height: 20)),
        (PixelSize(width: 64, height: 48), PixelSize(width: 1, height: 1)),
        (PixelSize(width: 5, height: 3), PixelSize(width: 17, height: 11)),
        (PixelSize(width: 1, height: 40), PixelSize(width: 3, height: 7)),
        (PixelSize(width: 301, height: 203), PixelSize(width: 75, height: 50)),
    ]

    @Test("Weight tables come from the cache only for the same input, output, extent and filter")
    func cachedTables() {
        func same(_ a: Resampler.Contributions, _ b: Resampler.Contributions) -> Bool {
            a.starts == b.starts && a.counts == b.counts && a.weights == b.weights && a.taps == b.taps && a.stride == b.stride
        }
        let cases: [(Int, Int, Double, Resampler.Filter)] = [
            (544, 256, 544, .lanczos3), (544, 256, 543.5, .lanczos3), (544, 256, 544, .catmullRom), (545, 256, 544, .lanczos3),
            (544, 255, 544, .lanczos3),
        ]
        for _ in 0..<2 {  // the second round comes from the cache
            for (input, output, extent, filter) in cases {
                let cached = Resampler.Contributions.cached(input: input, output: output, extent: extent, filter: filter)
                let fresh = Resampler.Contributions(input: input, output: output, extent: extent, filter: filter)
                #expect(same(cached, fresh), "\(input)→\(output) over \(extent), \(filter)")
            }
        }
        let key = Resampler.Contributions.Key(input: 544, output: 256, extent: Double(544).bitPattern, filter: .lanczos3)
        #expect(Resampler.Contributions.recent.contains(key))
    }

    @Test("The exact single pass matches a scalar reference within ±1", arguments: Resampler.Filter.allCases)
    func exactPass(filter: Resampler.Filter) {
        var generator = SplitMix64(seed: 14)
        for (source, target) in Self.sizes {
            for alphaMode in [AlphaMode.straight, .premultiplied] {
                for translucent in [false, true] {
                    let input = TestRandom.image(source, alphaMode: alphaMode, translucent: translucent, using: &generator)
                    let fast = Resampler.resample(input, to: target, filter: filter, reducingGap: nil)
                    let slow = ReferenceResampler.resample(input, to: target, filter: filter)
                    #expect(fast.alphaMode == alphaMode)
                    #expect(
                        ImageFixtures.maxAbsoluteDifference(fast, slow) <= 1,
                        "\(source) → \(target) \(filter) \(alphaMode) translucent: \(translucent)")
                }
            }
        }
    }

    @Test("A partial source extent matches the reference too")
    func partialExtent() {
        var generator = SplitMix64(seed: 7)
        let input = TestRandom.image(PixelSize(width: 80, height: 60), alphaMode: .premultiplied, translucent: true, using: &generator)
        let target = PixelSize(width: 23, height: 19)
        let extent = (width: 77.5, height: 58.25)
        let fast = Resampler.resample(input, to: target, sourceExtent: extent, reducingGap: nil)
        let slow = ReferenceResampler.resample(input, to: target, extent: extent, filter: .lanczos3)
        #expect(ImageFixtures.maxAbsoluteDifference(fast, slow) <= 1)
    }

    @Test("Box reduction averages whole blocks, partial blocks at the edges, exactly as the reference")
    func boxReduce() {
        var generator = SplitMix64(seed: 3)
        for (size, fx, fy) in [(PixelSize(width: 61, height: 37), 4, 3), (PixelSize(width: 8, height: 8), 2, 2), (PixelSize(width: 33, height: 5), 7, 1)] {
            let input = TestRandom.image(size, alphaMode: .premultiplied, translucent: true, using: &generator)
            let fast = Resampler.boxReduce(input, factorX: fx, factorY: fy)
            let slow = ReferenceResampler.boxReduce(input, factorX: fx, factorY: fy)
            #expect(fast.size == PixelSize(width: (size.width + fx - 1) / fx, height: (size.height + fy - 1) / fy))
            #expect(fast == slow, "\(size) by \(fx)×\(fy)")
        }
    }

    @Test("A large reduction box-reduces by floor(scale / gap) first, then filters the reduced extent")
    func reducingGapComposition() {
        var generator = SplitMix64(seed: 11)
        let input = TestRandom.image(PixelSize(width: 250, height: 130), alphaMode: .straight, translucent: true, using: &generator)
        let target = PixelSize(width: 24, height: 20)
        // Scales 10.4 and 6.5 with gap 2: factors 5 and 3, reduced extents 50 and 43.33.
        let fast = Resampler.resample(input, to: target)
        let reduced = ReferenceResampler.boxReduce(input.premultiplied(), factorX: 5, factorY: 3)
        let slow = ReferenceResampler.resample(reduced, to: target, extent: (50, 130.0 / 3), filter: .lanczos3)
            .unpremultiplied()
        #expect(ImageFixtures.maxAbsoluteDifference(fast, slow) <= 1)
        // And it stays close to the exact single pass on a smooth image.
        let smooth = ImageFixtures.gradient(width: 600, height: 400)
        let gapped = Resampler.resample(smooth, to: PixelSize(width: 60, height: 40))
        let exact = Resampler.resample(smooth, to: PixelSize(width: 60, height: 40), reducingGap: nil)
        #expect(ImageFixtures.meanAbsoluteDifference(gapped, exact) < 1)
    }

    @Test("Lanczos on a linear ramp gives the analytic value within ±1 away from the edges")
    func ramp() {
        let source = PixelBuffer(width: 256, height: 4, alphaMode: .premultiplied) { out in
            for y in 0..<4 {
                for x in 0..<256 {
                    let i = (y * 256 + x) * 4
                    (out[i], out[i + 1], out[i + 2], out[i + 3]) = (UInt8(x), UInt8(255 - x), UInt8(x / 2), 255)
                }
            }
        }
        for (width, gap) in [(128, nil), (64, nil), (100, nil), (32, Optional(2.0))] {
            let out = Resampler.resample(source, to: PixelSize(width: width, height: 4), reducingGap: gap)
            let scale = 256.0 / Double(width)
            let margin = Int((3 * scale / 2).rounded(.up)) + 1
            for x in margin..<(width - margin) {
                let analytic = (Double(x) + 0.5) * scale - 0.5
                #expect(abs(Double(out[x, 2].r) - analytic) <= 1, "width \(width) x \(x)")
                #expect(abs(Double(out[x, 2].g) - (255 - analytic)) <= 1, "width \(width) x \(x)")
            }
        }
    }
}

/// Random test images from a seeded generator (SplitMix64, WebImageTesting).
enum TestRandom {
    /// Random pixels; premultiplied images keep colour ≤ alpha.
    static func image(_ size: PixelSize, alphaMode: AlphaMode, translucent: Bool, using generator: inout SplitMix64)
        -> PixelBuffer
    {
        PixelBuffer(width: size.width, height: size.height, alphaMode: alphaMode) { out in
            var i = 0
            while i < out.count {
                let alpha = translucent ? UInt8.random(in: 0...255, using: &generator) : 255
                let limit = alphaMode == .premultiplied ? alpha : 255
                for c in 0..<3 { out[i + c] = UInt8.random(in: 0...limit, using: &generator) }
                out[i + 3] = alpha
                i += 4
            }
        }
    }
}

/// Slow, obvious versions of the resampler's kernels: the same coefficient tables and rounding,
/// plain scalar loops with checked arithmetic.
enum ReferenceResampler {
    static func resample(
        _ buffer: PixelBuffer, to size: PixelSize, extent: (width: Double, height: Double)? = nil,
        filter: Resampler.Filter
    ) -> PixelBuffer {
        let extent = extent ?? (Double(buffer.width), Double(buffer.height))
        let mode = buffer.alphaMode
        let source = buffer.premultiplied()
        let columns = Resampler.Contributions(input: source.width, output: size.width, extent: extent.width, filter: filter)
        let rows = Resampler.Contributions(input: source.height, output: size.height, extent: extent.height, filter: filter)
        // Horizontal first (as the resampler does unless that makes a huge intermediate).
        let widened = PixelSize(width: size.width, height: source.height).pixelCount
        let verticalFirst = widened > max(source.size.pixelCount, size.pixelCount)
        var work = source
        if verticalFirst {
            work = pass(work, plan: rows, output: size.height, vertical: true)
            work = pass(work, plan: columns, output: size.width, vertical: false)
        } else {
            if size.width != source.width || extent.width != Double(source.width) {
                work = pass(work, plan: columns, output: size.width, vertical: false)
            }
            if size.height != source.height || extent.height != Double(source.height) {
                work = pass(work, plan: rows, output: size.height, vertical: true)
            }
        }
        return work.converted(to: mode)
    }

    static func pass(_ source: PixelBuffer, plan: Resampler.Contributions, output: Int, vertical: Bool) -> PixelBuffer {
        let width = vertical ? source.width : output
        let height = vertical ? output : source.height
        var result = PixelBuffer(width: width, height: height, alphaMode: .premultiplied)
        for y in 0..<height {
            for x in 0..<width {
                let i = vertical ? y : x
                var sums = [Int](repeating: 0, count: 4)
                for k in 0..<plan.counts[i] {
                    let weight = Int(plan.weights[i * plan.stride + k])
                    let pixel = vertical ? source[x, plan.starts[i] + k] : source[plan.starts[i] + k, y]
                    sums[0] += Int(pixel.r) * weight
                    sums[1] += Int(pixel.g) * weight
                    sums[2] += Int(pixel.b) * weight
                    sums[3] += Int(pixel.a) * weight
                }
                let bytes = sums.map { UInt8(clamping: ($0 + 8192) >> 14) }
                let alpha = bytes[3]
                result[x, y] = RGBA8(r: min(bytes[0], alpha), g: min(bytes[1], alpha), b: min(bytes[2], alpha), a: alpha)
            }
        }
        return result
    }

    static func boxReduce(_ source: PixelBuffer, factorX: Int, factorY: Int) -> PixelBuffer {
        let width = (source.width + factorX - 1) / factorX
        let height = (source.height + factorY - 1) / factorY
        var result = PixelBuffer(width: width, height: height, alphaMode: source.alphaMode)
        for y in 0..<height {
            for x in 0..<width {
                var sums = [Int](repeating: 0, count: 4)
                var count = 0
                for sy in (y * factorY)..<min(source.height, (y + 1) * factorY) {
                    for sx in (x * factorX)..<min(source.width, (x + 1) * factorX) {
                        let pixel = source[sx, sy]
                        sums[0] += Int(pixel.r)
                        sums[1] += Int(pixel.g)
                        sums[2] += Int(pixel.b)
                        sums[3] += Int(pixel.a)
                        count += 1
                    }
                }
                let bytes = sums.map { UInt8(($0 + count / 2) / count) }
                result[x, y] = RGBA8(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes[3])
            }
        }
        return result
    }
}
