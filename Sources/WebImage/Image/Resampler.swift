/// High-quality image resampling: separable convolution with a Lanczos-3 (default), Mitchell,
/// Catmull-Rom, bilinear or box kernel, widened by the scale factor when reducing so that every
/// source pixel contributes (no aliasing); or nearest-neighbour sampling (never widened).
///
/// Works on premultiplied pixels (straight input is premultiplied first and converted back), in
/// 14-bit fixed point.
///
/// ```swift
/// let thumbnail = Resampler.resample(image.pixels, to: PixelSize(width: 256, height: 171))
/// ```
public enum Resampler {
    /// The reconstruction kernel.
    ///
    /// - ``lanczos3``: sharpest, slight ringing on hard edges; the default.
    /// - ``mitchell``: Mitchell–Netravali (B = C = 1/3), softer, almost no ringing.
    /// - ``catmullRom``: the cubic with B = 0, C = 1/2.
    /// - ``bilinear``: the triangle (tent) kernel.
    /// - ``box``: the area average when reducing.
    /// - ``nearest``: the source pixel under each output pixel's centre, no blending (pixel art).
    public enum Filter: String, Sendable, CaseIterable {
        case lanczos3, catmullRom, bilinear, box
        case mitchell, nearest

        var support: Double {
            switch self {
            case .lanczos3: 3
            case .catmullRom, .mitchell: 2
            case .bilinear: 1
            case .box, .nearest: 0.5
            }
        }

        /// Whether the kernel is stretched by the reduction factor (all but nearest-neighbour).
        var widensWhenReducing: Bool { self != .nearest }

        func weight(_ x: Double) -> Double {
            let x = abs(x)
            switch self {
            case .box:
                return x <= 0.5 ? 1 : 0
            case .nearest:
                return x < 0.5 ? 1 : 0
            case .mitchell:
                // Mitchell–Netravali with B = C = 1/3, the polynomial pieces times 6.
                if x < 1 { return (7 * x * x * x - 12 * x * x + 16.0 / 3) / 6 }
                if x < 2 { return (-7.0 / 3 * x * x * x + 12 * x * x - 20 * x + 32.0 / 3) / 6 }
                return 0
            case .bilinear:
                return x < 1 ? 1 - x : 0
            case .catmullRom:
                if x < 1 { return 1.5 * x * x * x - 2.5 * x * x + 1 }
                if x < 2 { return -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 }
                return 0
            case .lanczos3:
                if x == 0 { return 1 }
                if x >= 3 { return 0 }
                let px = Double.pi * x
                return 3 * sin(px) * sin(px / 3) / (px * px)
            }
        }
    }

    /// How far a large reduction may first be box-averaged by a whole factor: the source is
    /// reduced by `floor(scale / reducingGap)` in each direction (at least 1), so the filter
    /// still reduces by `reducingGap` or more (the `reducing_gap` of Pillow's `thumbnail`, and
    /// libvips's `vips_resize` gap, both 2 by default). `nil` always runs the exact single pass.
    public static let defaultReducingGap: Double? = 2

    /// `buffer` resampled to `size` (returned unchanged when the sizes match).
    ///
    /// - Parameters:
    ///   - buffer: the pixels to resample, in either alpha mode (resampled premultiplied, returned
    ///     in the input's mode).
    ///   - size: the size of the result.
    ///   - sourceExtent: how many source pixels (fractional) the output spans, from the top-left;
    ///     defaults to the whole buffer. Decoders that scale by whole blocks (libjpeg's DCT scaling
    ///     rounds sizes up) pass the exact scaled extent, so that a partial last column or row does
    ///     not shift the image.
    ///   - filter: the resampling filter.
    ///   - reducingGap: reductions by more than this factor are box-averaged by a whole factor
    ///     first, down to at least `reducingGap` times the result, then filtered
    ///     (``defaultReducingGap``); `nil` keeps the exact single pass.
    ///   - parallelism: how many threads may share each filter pass of one large image, each
    ///     writing its own band of rows (1, the default, stays on the calling thread; the result is
    ///     the same bytes either way). Small images and thin passes stay on one thread.
    ///   - knownOpaque: true when the caller knows every alpha is 255 (an ``Image`` whose
    ///     `hasAlpha` is false, such as any JPEG decode): skips the scan of the whole buffer that
    ///     otherwise finds that out before the premultiply. Pass true only then: translucent
    ///     straight pixels would be resampled as if premultiplied.
    ///
    /// ```swift
    /// let exact = Resampler.resample(photo, to: PixelSize(width: 256, height: 171), reducingGap: nil)
    /// ```
    public static func resample(
        _ buffer: PixelBuffer, to size: PixelSize, sourceExtent: (width: Double, height: Double)? = nil,
        filter: Filter = .lanczos3, reducingGap: Double? = defaultReducingGap, parallelism: Int = 1,
        knownOpaque: Bool = false
    ) -> PixelBuffer {
        precondition(size.width > 0 && size.height > 0, "resample target must be non-empty")
        var extent = sourceExtent ?? (Double(buffer.width), Double(buffer.height))
        if buffer.size == size && extent.width == Double(buffer.width) && extent.height == Double(buffer.height) {
            return buffer
        }
        let mode = buffer.alphaMode
        guard buffer.width > 0 && buffer.height > 0 else {
            return PixelBuffer(width: size.width, height: size.height, alphaMode: mode)
        }
        // Premultiplying an opaque image changes nothing, and an opaque image resamples to an
        // opaque one (the weights sum to one exactly): skip both conversions and the copy.
        let opaque = mode == .straight && (knownOpaque || buffer.isOpaque)
        var work = opaque ? buffer.relabelled(.premultiplied) : buffer.premultiplied()
        // Intermediates made here go back to the storage pool once the next pass has read them;
        // the caller's own pixels never do.
        var ownsWork = !opaque && mode == .straight
        func advance(_ next: PixelBuffer) {
            if ownsWork { PixelStoragePool.shared.recycle(work) }
            work = next
            ownsWork = true
        }
        // Nearest-neighbour never blends, so it is never box-averaged first.
        if let gap = reducingGap, gap >= 1, filter.widensWhenReducing {
            let factorX = max(1, Int((min(extent.width, Double(buffer.width)) / Double(size.width) / gap).rounded(.down)))
            let factorY = max(1, Int((min(extent.height, Double(buffer.height)) / Double(size.height) / gap).rounded(.down)))
            if factorX > 1 || factorY > 1 {
                advance(boxReduce(work, factorX: factorX, factorY: factorY))
                extent = (extent.width / Double(factorX), extent.height / Double(factorY))
            }
        }
        let fullWidth = extent.width == Double(work.width)
        let fullHeight = extent.height == Double(work.height)
        let resizesWidth = size.width != work.width || !fullWidth
        let resizesHeight = size.height != work.height || !fullHeight
        // Horizontal first, unless that makes an intermediate larger than both the source and the
        // result (widening while shortening: 1×100000 → 10000×1 would pass through 10000×100000).
        let widenedFirst = PixelSize(width: size.width, height: work.height).pixelCount
        let verticalFirst =
            resizesWidth && resizesHeight && widenedFirst > max(work.size.pixelCount, size.pixelCount)
        if verticalFirst {
            advance(vertical(work, to: size.height, extent: extent.height, filter: filter, parallelism: parallelism))
        }
        if resizesWidth {
            advance(horizontal(work, to: size.width, extent: extent.width, filter: filter, parallelism: parallelism))
        }
        if resizesHeight && !verticalFirst {
            advance(vertical(work, to: size.height, extent: extent.height, filter: filter, parallelism: parallelism))
        }
        return opaque ? work.relabelled(.straight) : work.converted(to: mode)
    }

    static let precisionBits = 14

    /// Per output coordinate: the first source index and the fixed-point weights, `stride`
    /// weights per output coordinate (zero past `counts[i]`).
    ///
    /// The kernels read `taps`, the same weights as Int16 (they are at most a little over 2^14):
    /// products of a byte and an Int16 are what SSE2's multiply-add instruction computes.
    struct Contributions: Sendable {
        var starts: [Int] = []
        var counts: [Int] = []
        var weights: [Int32] = []
        var taps: [Int16] = []
        var stride = 0

        init(input: Int, output: Int, extent: Double, filter: Filter) {
            let scale = min(extent, Double(input)) / Double(output)
            let filterScale = filter.widensWhenReducing ? max(scale, 1) : 1
            let support = filter.support * filterScale
            stride = Int(support.rounded(.up)) * 2 + 1
            starts.reserveCapacity(output)
            counts.reserveCapacity(output)
            weights = [Int32](repeating: 0, count: stride * output)
            var real = [Double](repeating: 0, count: stride)
            for i in 0..<output {
                let center = (Double(i) + 0.5) * scale
                let lo = max(0, Int((center - support + 0.5).rounded(.down)))
                let hi = min(input, Int((center + support + 0.5).rounded(.down)))
                let count = max(1, min(stride, hi - lo))
                var total = 0.0
                for k in 0..<count {
                    let w = filter.weight((Double(lo + k) - center + 0.5) / filterScale)
                    real[k] = w
                    total += w
                }
                // Normalise to 1 << precisionBits exactly, putting the rounding error on the peak.
                let one = Int32(1 << precisionBits)
                var sum: Int32 = 0
                var peak = 0
                for k in 0..<count {
                    let w = total != 0 ? Int32((real[k] / total * Double(one)).rounded()) : (k == 0 ? one : 0)
                    weights[i * stride + k] = w
                    sum += w
                    if w > weights[i * stride + peak] { peak = k }
                }
                weights[i * stride + peak] += one - sum
                starts.append(min(lo, input - 1))
                counts.append(count)
            }
            taps = weights.map { Int16(clamping: $0) }
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
