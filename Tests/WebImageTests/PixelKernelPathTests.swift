import Testing
import WebImageTesting

@testable import WebImage

/// Every kernel path this CPU runs (portable Swift, AVX2, AVX-512) against the scalar references
/// on random images: the bytes must be identical, at every size and edge.
@Suite("Pixel kernel paths")
struct PixelKernelPathTests {
    /// Upscales, downscales, odd widths (vector tails), 1-pixel images and lines, and sizes whose
    /// rows are not a multiple of the four-row and 64-byte blocks.
    static let sizes: [(source: PixelSize, target: PixelSize)] = [
        (PixelSize(width: 1, height: 1), PixelSize(width: 7, height: 5)),
        (PixelSize(width: 1, height: 9), PixelSize(width: 1, height: 2)),
        (PixelSize(width: 9, height: 1), PixelSize(width: 2, height: 1)),
        (PixelSize(width: 5, height: 3), PixelSize(width: 17, height: 11)),
        (PixelSize(width: 33, height: 7), PixelSize(width: 16, height: 3)),
        (PixelSize(width: 97, height: 61), PixelSize(width: 31, height: 17)),
        (PixelSize(width: 97, height: 61), PixelSize(width: 197, height: 20)),
        (PixelSize(width: 64, height: 48), PixelSize(width: 1, height: 1)),
        (PixelSize(width: 301, height: 203), PixelSize(width: 75, height: 50)),
        (PixelSize(width: 50, height: 37), PixelSize(width: 23, height: 150)),
    ]

    @Test("The CPU runs the portable path and whatever vector paths it reports")
    func available() {
        #expect(PixelKernels.available.first == .portable)
        #expect(PixelKernels.available.contains(PixelKernels.active))
        #if arch(x86_64)
            // Every machine this project builds and tests on has AVX2 (docs/performance.md).
            #expect(PixelKernels.available.contains(.avx2))
        #endif
    }

    @Test("WEBIMAGE_SIMD picks a path, never one the CPU lacks; an unknown name is ignored")
    func override() {
        let all = PixelKernels.allCases
        #expect(PixelKernels.select(nil, available: all) == .avx512)
        #expect(PixelKernels.select("avx2", available: all) == .avx2)
        #expect(PixelKernels.select("AVX512", available: [.portable, .avx2]) == .avx2)
        #expect(PixelKernels.select("scalar", available: all) == .portable)
        #expect(PixelKernels.select("sse2", available: all) == .portable)
        #expect(PixelKernels.select("portable", available: all) == .portable)
        #expect(PixelKernels.select("neon", available: [.portable]) == .portable)
        #expect(PixelKernels.select("turbo", available: all) == .avx512)
    }

    @Test("Horizontal and vertical passes equal the scalar reference byte for byte", arguments: PixelKernels.available)
    func passes(kernels: PixelKernels) {
        var generator = SplitMix64(seed: 29)
        for filter in Resampler.Filter.allCases {
            for (source, target) in Self.sizes {
                for translucent in [false, true] {
                    let input = TestRandom.image(source, alphaMode: .premultiplied, translucent: translucent, using: &generator)
                    let columns = Resampler.Contributions(
                        input: source.width, output: target.width, extent: Double(source.width), filter: filter)
                    let rows = Resampler.Contributions(
                        input: source.height, output: target.height, extent: Double(source.height), filter: filter)
                    let horizontal = Resampler.horizontal(
                        input, to: target.width, extent: Double(source.width), filter: filter, kernels: kernels)
                    let vertical = Resampler.vertical(
                        input, to: target.height, extent: Double(source.height), filter: filter, kernels: kernels)
                    let label = "\(kernels) \(filter) \(source) → \(target) translucent: \(translucent)"
                    #expect(horizontal == ReferenceResampler.pass(input, plan: columns, output: target.width, vertical: false), "\(label)")
                    #expect(vertical == ReferenceResampler.pass(input, plan: rows, output: target.height, vertical: true), "\(label)")
                }
            }
        }
    }

    @Test("Passes split across threads write the same bytes", arguments: PixelKernels.available)
    func parallelPasses(kernels: PixelKernels) {
        var generator = SplitMix64(seed: 5)
        let input = TestRandom.image(PixelSize(width: 613, height: 411), alphaMode: .premultiplied, translucent: true, using: &generator)
        let columns = Resampler.Contributions(input: 613, output: 150, extent: 613, filter: .lanczos3)
        let rows = Resampler.Contributions(input: 411, output: 101, extent: 411, filter: .lanczos3)
        let horizontal = Resampler.horizontal(input, to: 150, extent: 613, filter: .lanczos3, parallelism: 3, kernels: kernels)
        let vertical = Resampler.vertical(input, to: 101, extent: 411, filter: .lanczos3, parallelism: 3, kernels: kernels)
        #expect(horizontal == ReferenceResampler.pass(input, plan: columns, output: 150, vertical: false))
        #expect(vertical == ReferenceResampler.pass(input, plan: rows, output: 101, vertical: true))
    }

    @Test("The 2 × 2 box reduction equals the reference, odd edges included", arguments: PixelKernels.available)
    func boxReduce(kernels: PixelKernels) {
        var generator = SplitMix64(seed: 2)
        let sizes = [(1, 1), (2, 2), (3, 1), (1, 5), (7, 3), (16, 4), (17, 9), (33, 2), (64, 6), (129, 11), (300, 7)]
        for (width, height) in sizes {
            let input = TestRandom.image(
                PixelSize(width: width, height: height), alphaMode: .premultiplied, translucent: true, using: &generator)
            let fast = Resampler.boxReduce(input, factorX: 2, factorY: 2, kernels: kernels)
            #expect(fast == ReferenceResampler.boxReduce(input, factorX: 2, factorY: 2), "\(kernels) \(width)×\(height)")
        }
    }

    /// σ for the blur: a sampled Gaussian (below 4: tiny to wide), three exact boxes (4 to about
    /// 100) and normalised boxes (above 100, which run the portable passes on every path).
    static let blurSigmas: [Double] = [0.3, 1, 2.5, 3.9, 4, 6.5, 10, 33, 60, 150]

    /// The portable path is the blur's reference: each vector path must give its bytes.
    @Test(
        "The blur equals the portable passes byte for byte at every σ, size and edge",
        arguments: PixelKernels.allCases.filter { $0 != .portable })
    func blur(kernels: PixelKernels) throws {
        guard PixelKernels.available.contains(kernels) else { try Test.cancel("this CPU has no \(kernels) path") }
        var generator = SplitMix64(seed: 17)
        // 1-pixel images and lines, widths not a multiple of the 2- and 4-row groups or of 4 pixels,
        // images narrower than the boxes, and random sizes.
        var sizes = [(1, 1), (1, 9), (9, 1), (2, 3), (5, 3), (3, 5), (7, 17), (33, 7), (130, 5), (97, 61)]
        for _ in 0..<4 { sizes.append((Int.random(in: 1...160, using: &generator), Int.random(in: 1...90, using: &generator))) }
        for (width, height) in sizes {
            for sigma in Self.blurSigmas {
                for translucent in [false, true] {
                    let input = TestRandom.image(
                        PixelSize(width: width, height: height), alphaMode: .premultiplied, translucent: translucent,
                        using: &generator)
                    let fast = BoxBlur.blur(input, sigma: sigma, kernels: kernels)
                    let reference = BoxBlur.blur(input, sigma: sigma, kernels: .portable)
                    #expect(fast == reference, "\(kernels) \(width)×\(height) σ \(sigma) translucent: \(translucent)")
                }
            }
        }
        // Larger images at the σ of each branch (kernel, boxes), and one so wide that the vertical
        // boxes take the strips (their rings would pass BoxBlur.maxRingBytes) before the vector rows.
        #expect(!BoxBlur.rowsFit(width: 13_000, radii: BoxBlur.radii(sigma: 95)))
        for (width, height, sigma) in [(301, 203, 2.0), (301, 203, 10.0), (13_000, 2, 95.0)] {
            let input = TestRandom.image(
                PixelSize(width: width, height: height), alphaMode: .premultiplied, translucent: true, using: &generator)
            let fast = BoxBlur.blur(input, sigma: sigma, kernels: kernels)
            #expect(fast == BoxBlur.blur(input, sigma: sigma, kernels: .portable), "\(kernels) \(width)×\(height) σ \(sigma)")
        }
    }

    @Test("Premultiply and unpremultiply equal the scalar kernels for every colour and alpha", arguments: PixelKernels.available)
    func alphaConversion(kernels: PixelKernels) {
        // Every (colour, alpha) pair once, in all three colour channels, plus a 3-pixel tail.
        var bytes = [UInt8]()
        for alpha in 0...255 {
            for colour in 0...255 { bytes += [UInt8(colour), UInt8(255 - colour), UInt8(colour / 2), UInt8(alpha)] }
        }
        bytes += [10, 20, 30, 40, 200, 100, 50, 128, 255, 255, 255, 0]
        for operation in [AlphaConversion.premultiply, AlphaConversion.unpremultiply] {
            var fast = bytes
            var slow = bytes
            fast.withUnsafeMutableBufferPointer { operation($0, kernels) }
            slow.withUnsafeMutableBufferPointer { operation($0, .portable) }
            #expect(fast == slow, "\(kernels)")
        }
    }
}

@Suite("Resampler's known-opaque hint")
struct ResamplerKnownOpaqueTests {
    @Test("An opaque straight image resamples to the same bytes with or without the hint")
    func sameBytes() {
        var generator = SplitMix64(seed: 8)
        let input = TestRandom.image(PixelSize(width: 203, height: 101), alphaMode: .straight, translucent: false, using: &generator)
        for gap in [nil, Optional(2.0)] {
            let hinted = Resampler.resample(input, to: PixelSize(width: 40, height: 21), reducingGap: gap, knownOpaque: true)
            let scanned = Resampler.resample(input, to: PixelSize(width: 40, height: 21), reducingGap: gap)
            #expect(hinted == scanned)
            #expect(hinted.alphaMode == .straight)
        }
    }
}
