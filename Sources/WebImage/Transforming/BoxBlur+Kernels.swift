import CPixelKernels

/// The blur on the AVX2 and AVX-512 kernels (``PixelKernels``): the same integer sums, rounding
/// and clamps as the portable passes of ``BoxBlur``, so the same bytes.
///
/// Three boxes (σ ≥ 4, exact sums): the vertical running sums and their store run in C
/// (``BoxBlur/verticalRows(_:into:radii:total:kernels:)``), and the three horizontal passes here,
/// two rows (AVX2) or four (AVX-512) side by side in one register. A sampled Gaussian (σ < 4) is a
/// convolution with fixed 14-bit weights rounded as the resampler rounds, so it runs the
/// resampler's vertical and horizontal kernels with a table of those weights.
extension BoxBlur {
    /// The three horizontal box passes of radii `radii` (exact sums) over every row of `pixels`, in
    /// place, normalised by `total`, on the C kernels of `level`.
    static func horizontalBoxes(_ pixels: inout PixelBuffer, radii: [Int], total: Int64, level: Int32) {
        let (width, height) = (pixels.width, pixels.height)
        // Two buffers of a pixel per position for four rows: 32 values per column.
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 32 * width)
        defer { scratch.deallocate() }
        let multiplier = UInt32(levelMultiplier(total: total))
        radii.withUnsafeBufferPointer { radii in
            pixels.bytes.withUnsafeMutableBufferPointer { p in
                wik_blur_horizontal(level, p.baseAddress!, width &* 4, height, width, radii.baseAddress!, multiplier, scratch)
            }
        }
    }

    /// `pixels` convolved with the centred `weights` (summing to 1 << 14) down, then across, edges
    /// extended: the resampler's passes with ``Resampler/Contributions/init(extending:length:)``.
    static func convolved(_ pixels: PixelBuffer, weights: [Int32], kernels: PixelKernels) -> PixelBuffer {
        let rows = Resampler.Contributions(extending: weights, length: pixels.height)
        let columns = Resampler.Contributions(extending: weights, length: pixels.width)
        let vertical = Resampler.vertical(pixels, plan: rows, kernels: kernels)
        defer { PixelStoragePool.shared.recycle(vertical) }  // the intermediate, as the resampler's
        return Resampler.horizontal(vertical, plan: columns, kernels: kernels)
    }
}

extension Resampler.Contributions {
    /// The centred kernel `weights` (an odd count) at each of `length` positions, edges extended:
    /// a tap past an edge adds its weight to the edge pixel's, so the sums equal those of a
    /// convolution that repeats the edge pixel.
    init(extending weights: [Int32], length: Int) {
        let radius = weights.count / 2
        stride = weights.count
        self.weights = [Int32](repeating: 0, count: stride * length)
        starts.reserveCapacity(length)
        counts.reserveCapacity(length)
        for position in 0..<length {
            let first = max(0, position - radius)
            for k in 0..<weights.count {
                let source = min(max(position + k - radius, 0), length - 1)
                self.weights[position * stride + source - first] += weights[k]
            }
            starts.append(first)
            counts.append(min(length - 1, position + radius) - first + 1)
        }
        // Each weight is at most the whole kernel's sum, 1 << 14: it fits an Int16.
        taps = self.weights.map { Int16(clamping: $0) }
    }
}
