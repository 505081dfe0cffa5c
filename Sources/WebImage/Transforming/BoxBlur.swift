/// The Gaussian blur kernel: three successive box blurs per axis (the central limit theorem makes
/// their convolution close to a Gaussian), with box widths chosen so that the variance is σ² as
/// nearly as boxes of two odd widths allow (Kovesi, "Fast Almost-Gaussian Filtering", 2010; within
/// 5 %). Edges extend (the nearest edge pixel repeats), so a flat image stays exactly flat.
///
/// Each box pass is a running sum: O(1) work per pixel whatever σ. The vertical passes run first,
/// on strips of 64 columns (all lanes of a row side by side, so the inner loops are contiguous),
/// writing 8-bit rows; the horizontal passes then run row by row in place. The sums stay exact
/// integers through the three passes while `255 · w₁w₂w₃` fits in 32 bits (σ up to about 100),
/// and are normalised after every pass (8 fractional bits) beyond. Memory: the result, plus a
/// strip of 64 columns of 32-bit sums.
///
/// Below σ = 4 boxes match the variance poorly (widths are odd integers), so small blurs use a
/// true Gaussian kernel to ±3σ instead (14-bit weights), which costs few taps there.
enum BoxBlur {
    /// The largest σ accepted (a box of about 4000 pixels).
    static let maxSigma = 2000.0
    /// Below this σ the kernel is a sampled Gaussian rather than three boxes.
    static let smallSigma = 4.0

    /// How one axis is filtered.
    enum Plan {
        /// Three running-sum boxes of these radii.
        case boxes([Int])
        /// A direct convolution with these weights (summing to 1 << 14), centred.
        case kernel([Int32])

        init(sigma: Double) {
            guard sigma < BoxBlur.smallSigma else {
                self = .boxes(BoxBlur.radii(sigma: sigma))
                return
            }
            let radius = max(1, Int((3 * sigma).rounded(.up)))
            let real = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = real.reduce(0, +)
            var weights = real.map { Int32(($0 / total * 16_384).rounded()) }
            weights[radius] += 16_384 - weights.reduce(0, +)
            self = .kernel(weights)
        }
    }

    /// The three box radii whose convolution has variance σ².
    static func radii(sigma: Double) -> [Int] {
        let passes = 3.0
        let ideal = (12 * sigma * sigma / passes + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        lower = max(1, lower)
        let upper = lower + 2
        let wl = Double(lower)
        let m = ((12 * sigma * sigma - passes * wl * wl - 4 * passes * wl - 3 * passes) / (-4 * wl - 4)).rounded()
        return (0..<3).map { Double($0) < m ? (lower - 1) / 2 : (upper - 1) / 2 }
    }

    /// `pixels` (premultiplied) blurred with the three-box approximation of a Gaussian of `sigma`,
    /// on the vector kernels of `kernels` where they exist (the same bytes on every path).
    static func blur(_ pixels: PixelBuffer, sigma: Double, kernels: PixelKernels = .active) -> PixelBuffer {
        guard sigma > 0, pixels.width > 0, pixels.height > 0 else { return pixels }
        let plan = Plan(sigma: sigma)
        let total: Int64
        switch plan {
        case .boxes(let radii):
            guard radii.contains(where: { $0 > 0 }) else { return pixels }
            total = radii.reduce(Int64(1)) { $0 * Int64(2 * $1 + 1) }
        case .kernel:
            total = 16_384
        }
        let exact = total * 255 < Int64(Int32.max)
        if case .kernel(let weights) = plan, kernels.vectorLevel != nil {
            return convolved(pixels, weights: weights, kernels: kernels)
        }
        var out = PixelBuffer(width: pixels.width, height: pixels.height, alphaMode: .premultiplied)
        if case .boxes(let radii) = plan, exact, rowsFit(width: pixels.width, radii: radii) {
            verticalRows(pixels, into: &out, radii: radii, total: total, kernels: kernels)
        } else {
            verticalPasses(pixels, into: &out, plan: plan, exact: exact, total: total)
        }
        if case .boxes(let radii) = plan, exact, let level = kernels.vectorLevel {
            horizontalBoxes(&out, radii: radii, total: total, level: level)
        } else {
            horizontalPasses(&out, plan: plan, exact: exact, total: total)
        }
        return out
    }

    /// Blurs every column of `source` into `out`, 64 columns at a time.
    static func verticalPasses(
        _ source: PixelBuffer, into out: inout PixelBuffer, plan: Plan, exact: Bool, total: Int64
    ) {
        let (width, height) = (source.width, source.height)
        let strip = 64
        let maxLanes = min(width, strip) * 4
        var a = [Int32](repeating: 0, count: height * maxLanes)
        var b = a
        var acc = [Int32](repeating: 0, count: maxLanes)
        let shift: Int32 = exact ? 0 : 8
        source.bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                a.withUnsafeMutableBufferPointer { a in
                    b.withUnsafeMutableBufferPointer { b in
                        acc.withUnsafeMutableBufferPointer { acc in
                            for x0 in stride(from: 0, to: width, by: strip) {
                                let lanes = min(strip, width - x0) * 4
                                for y in 0..<height {
                                    let from = (y &* width &+ x0) &* 4
                                    let to = y &* lanes
                                    for l in 0..<lanes { a[to &+ l] = Int32(src[from &+ l]) &<< shift }
                                }
                                filter(a, b, acc, n: height, lanes: lanes, plan: plan, exact: exact)
                                // The result of the third pass is in b.
                                for y in 0..<height {
                                    store(b, at: y &* lanes, into: dst, at: (y &* width &+ x0) &* 4, count: lanes,
                                          exact: exact, total: total)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Blurs every row of `pixels` in place, a pixel's four channels as one SIMD vector.
    private static func horizontalPasses(_ pixels: inout PixelBuffer, plan: Plan, exact: Bool, total: Int64) {
        let width = pixels.width
        var a = [SIMD4<Int32>](repeating: .zero, count: width)
        var b = a
        let height = pixels.height
        let shift: Int32 = exact ? 0 : 8
        pixels.bytes.withUnsafeMutableBufferPointer { p in
            a.withUnsafeMutableBufferPointer { a in
                b.withUnsafeMutableBufferPointer { b in
                    for y in 0..<height {
                        let row = y &* width &* 4
                        for x in 0..<width {
                            let i = row &+ x &* 4
                            a[x] = SIMD4(Int32(p[i]), Int32(p[i &+ 1]), Int32(p[i &+ 2]), Int32(p[i &+ 3])) &<< shift
                        }
                        switch plan {
                        case .boxes(let radii):
                            boxPass4(from: a, to: b, n: width, radius: radii[0], exact: exact)
                            boxPass4(from: b, to: a, n: width, radius: radii[1], exact: exact)
                            boxPass4(from: a, to: b, n: width, radius: radii[2], exact: exact)
                        case .kernel(let weights):
                            convolve4(from: a, to: b, n: width, weights: weights)
                        }
                        b.withMemoryRebound(to: Int32.self) { values in
                            store(values, at: 0, into: p, at: row, count: width &* 4, exact: exact, total: total)
                        }
                    }
                }
            }
        }
    }

    /// ``boxPass(from:to:_:n:lanes:radius:exact:)`` for one pixel per position: the edge positions
    /// clamp their indices, the interior ones (most of the row) run without.
    private static func boxPass4(
        from input: UnsafeMutableBufferPointer<SIMD4<Int32>>, to output: UnsafeMutableBufferPointer<SIMD4<Int32>>,
        n: Int, radius r: Int, exact: Bool
    ) {
        guard let src = input.baseAddress, let dst = output.baseAddress else { return }
        var sum = SIMD4<Int32>.zero
        for i in -r...r { sum &+= src[min(max(i, 0), n - 1)] }
        let multiplier = Int64((Double(1 << 24) / Double(2 * r + 1)).rounded())
        @inline(__always) func emit(_ position: Int) {
            if exact {
                dst[position] = sum
            } else {
                let wide = (SIMD4<Int64>(truncatingIfNeeded: sum) &* multiplier &+ (1 << 23)) &>> 24
                dst[position] = SIMD4<Int32>(truncatingIfNeeded: wide)
            }
        }
        // Interior: position − r ≥ 0 and position + r + 1 ≤ n − 1.
        let interiorStart = min(r, n)
        let interiorEnd = max(interiorStart, n &- r &- 1)
        var position = 0
        while position < interiorStart {
            emit(position)
            sum &+= src[min(position &+ r &+ 1, n &- 1)] &- src[max(position &- r, 0)]
            position &+= 1
        }
        if exact {
            while position < interiorEnd {
                dst[position] = sum
                sum &+= src[position &+ r &+ 1] &- src[position &- r]
                position &+= 1
            }
        } else {
            while position < interiorEnd {
                emit(position)
                sum &+= src[position &+ r &+ 1] &- src[position &- r]
                position &+= 1
            }
        }
        while position < n {
            emit(position)
            sum &+= src[min(position &+ r &+ 1, n &- 1)] &- src[max(position &- r, 0)]
            position &+= 1
        }
    }

    /// ``convolve(from:to:n:lanes:weights:)`` for one pixel per position.
    private static func convolve4(
        from src: UnsafeMutableBufferPointer<SIMD4<Int32>>, to dst: UnsafeMutableBufferPointer<SIMD4<Int32>>, n: Int,
        weights: [Int32]
    ) {
        let radius = weights.count / 2
        weights.withUnsafeBufferPointer { w in
            for position in 0..<n {
                var sum = SIMD4<Int32>.zero
                if position >= radius && position + radius < n {
                    var k = 0
                    var i = position &- radius
                    while k < w.count {
                        sum &+= src[i] &* w[k]
                        k &+= 1
                        i &+= 1
                    }
                } else {
                    for k in 0..<w.count { sum &+= src[min(max(position &+ k &- radius, 0), n - 1)] &* w[k] }
                }
                dst[position] = sum
            }
        }
    }

    /// Filters `n` positions of `lanes` interleaved values from a into b (a is scratch): three
    /// box passes a → b → a → b, or one convolution a → b.
    private static func filter(
        _ a: UnsafeMutableBufferPointer<Int32>, _ b: UnsafeMutableBufferPointer<Int32>,
        _ acc: UnsafeMutableBufferPointer<Int32>, n: Int, lanes: Int, plan: Plan, exact: Bool
    ) {
        switch plan {
        case .boxes(let radii):
            boxPass(from: a, to: b, acc, n: n, lanes: lanes, radius: radii[0], exact: exact)
            boxPass(from: b, to: a, acc, n: n, lanes: lanes, radius: radii[1], exact: exact)
            boxPass(from: a, to: b, acc, n: n, lanes: lanes, radius: radii[2], exact: exact)
        case .kernel(let weights):
            convolve(from: a, to: b, n: n, lanes: lanes, weights: weights)
        }
    }

    /// A direct convolution with `weights` (odd count, centred), edges extended.
    private static func convolve(
        from input: UnsafeMutableBufferPointer<Int32>, to output: UnsafeMutableBufferPointer<Int32>, n: Int,
        lanes: Int, weights: [Int32]
    ) {
        guard let src = input.baseAddress, let dst = output.baseAddress else { return }
        let radius = weights.count / 2
        weights.withUnsafeBufferPointer { w in
            for position in 0..<n {
                let o = position &* lanes
                for l in 0..<lanes { dst[o &+ l] = 0 }
                for k in 0..<w.count {
                    let row = min(max(position &+ k &- radius, 0), n - 1) &* lanes
                    let weight = w[k]
                    for l in 0..<lanes { dst[o &+ l] &+= src[row &+ l] &* weight }
                }
            }
        }
    }

    /// One running-sum box of `2·radius + 1` positions, edges extended; exact sums, or averages
    /// (8 fractional bits kept) when not `exact`.
    private static func boxPass(
        from input: UnsafeMutableBufferPointer<Int32>, to output: UnsafeMutableBufferPointer<Int32>,
        _ acc: UnsafeMutableBufferPointer<Int32>, n: Int, lanes: Int, radius r: Int, exact: Bool
    ) {
        guard let src = input.baseAddress, let dst = output.baseAddress, let sum = acc.baseAddress else { return }
        for l in 0..<lanes { sum[l] = 0 }
        for i in -r...r {
            let row = min(max(i, 0), n - 1) &* lanes
            for l in 0..<lanes { sum[l] &+= src[row &+ l] }
        }
        let multiplier = Int64((Double(1 << 24) / Double(2 * r + 1)).rounded())
        for position in 0..<n {
            let o = position &* lanes
            if exact {
                for l in 0..<lanes { dst[o &+ l] = sum[l] }
            } else {
                for l in 0..<lanes {
                    dst[o &+ l] = Int32(truncatingIfNeeded: (Int64(sum[l]) &* multiplier &+ (1 << 23)) >> 24)
                }
            }
            let add = min(position &+ r &+ 1, n - 1) &* lanes
            let remove = max(position &- r, 0) &* lanes
            for l in 0..<lanes { sum[l] = sum[l] &+ src[add &+ l] &- src[remove &+ l] }
        }
    }

    /// round(2^32 / total): an exact sum times it, plus 2^31, shifted right by 32 is its level.
    static func levelMultiplier(total: Int64) -> Int64 { Int64((Double(1 << 32) / Double(total)).rounded()) }

    /// Writes `count` blurred values as bytes: divided by the boxes' total (exact sums) or rounded
    /// from 8 fractional bits; colour is kept within alpha.
    @inline(__always)
    static func store(
        _ values: UnsafeMutableBufferPointer<Int32>, at from: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        at to: Int, count: Int, exact: Bool, total: Int64
    ) {
        let multiplier = levelMultiplier(total: total)
        var i = 0
        while i < count {
            @inline(__always) func byte(_ v: Int32) -> Int {
                exact ? Int((Int64(v) &* multiplier &+ (1 << 31)) >> 32) : Int((v &+ 128) >> 8)
            }
            let px = (byte(values[from &+ i]), byte(values[from &+ i &+ 1]), byte(values[from &+ i &+ 2]), byte(values[from &+ i &+ 3]))
            let alpha = min(255, max(0, px.3))
            out[to &+ i] = UInt8(min(alpha, max(0, px.0)))
            out[to &+ i &+ 1] = UInt8(min(alpha, max(0, px.1)))
            out[to &+ i &+ 2] = UInt8(min(alpha, max(0, px.2)))
            out[to &+ i &+ 3] = UInt8(alpha)
            i &+= 4
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
