import Dispatch
import CPixelKernels

// The resampler's two separable passes, in 14-bit fixed point over premultiplied RGBA.
//
// Hot loops read the precomputed coefficient tables and the pixels through raw pointers (no
// bounds checks), accumulate in SIMD registers with wrapping arithmetic (a tap's products cannot
// overflow: 255 × 2^14 × the weights' absolute sum stays far inside Int32), and round and clamp
// once per output pixel.
extension Resampler {
    /// Rounds a fixed-point accumulator to bytes, clamped to 0…255 and colour to at most alpha.
    @inline(__always)
    static func pack(_ accumulator: SIMD4<Int32>) -> SIMD4<UInt8> {
        let half = SIMD4<Int32>(repeating: 1 << 13)
        var value = (accumulator &+ half) &>> 14
        value = value.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
        value = pointwiseMin(value, SIMD4(repeating: value.w))
        return SIMD4<UInt8>(truncatingIfNeeded: value)
    }

    /// Four pixels at once: ``pack(_:)-(SIMD4<Int32>)`` for each.
    @inline(__always)
    static func pack(_ accumulator: SIMD16<Int32>) -> SIMD16<UInt8> {
        let half = SIMD16<Int32>(repeating: 1 << 13)
        var value = (accumulator &+ half) &>> 14
        value = value.clamped(lowerBound: .zero, upperBound: SIMD16(repeating: 255))
        let (a0, a1, a2, a3) = (value[3], value[7], value[11], value[15])
        let alpha = SIMD16<Int32>(a0, a0, a0, a0, a1, a1, a1, a1, a2, a2, a2, a2, a3, a3, a3, a3)
        return SIMD16<UInt8>(truncatingIfNeeded: pointwiseMin(value, alpha))
    }

    static func horizontal(
        _ source: PixelBuffer, to width: Int, extent: Double, filter: Filter, parallelism: Int = 1,
        kernels: PixelKernels = .active
    ) -> PixelBuffer {
        let plan = Contributions.cached(input: source.width, output: width, extent: extent, filter: filter)
        return horizontal(source, plan: plan, parallelism: parallelism, kernels: kernels)
    }

    /// The horizontal pass with the table `plan` (one entry per output column).
    static func horizontal(
        _ source: PixelBuffer, plan: Contributions, parallelism: Int = 1, kernels: PixelKernels = .active
    ) -> PixelBuffer {
        let width = plan.counts.count
        let height = source.height
        let inRow = source.width &* 4
        let stride = plan.stride
        return source.bytes.withUnsafeBytes { src in
            plan.taps.withUnsafeBufferPointer { weights in
                plan.starts.withUnsafeBufferPointer { starts in
                    plan.counts.withUnsafeBufferPointer { counts in
                        PixelBuffer(width: width, height: height, alphaMode: .premultiplied, storage: .shared) { out in
                            let input = src.baseAddress!
                            let output = UnsafeMutableRawPointer(out.baseAddress!)
                            let table = weights.baseAddress!
                            forEachRowRange(height, work: width &* stride, parallelism: parallelism) { rows in
                            if let level = kernels.vectorLevel {
                                let first = input.assumingMemoryBound(to: UInt8.self) + rows.lowerBound &* inRow
                                wik_resample_horizontal(
                                    level, first, inRow, out.baseAddress! + rows.lowerBound &* width &* 4, width &* 4,
                                    rows.count, width, table, stride, starts.baseAddress!, counts.baseAddress!)
                                return
                            }
                            for y in rows {
                                let row = input + y &* inRow
                                let outRow = output + y &* width &* 4
                                for x in 0..<width {
                                    var pixel = row + starts[x] &* 4
                                    var weight = table + x &* stride
                                    // Two taps per step (two pixels, eight lanes), then the odd one.
                                    var pairs = SIMD8<Int32>()
                                    for _ in 0..<(counts[x] &>> 1) {
                                        let value = SIMD8<Int32>(truncatingIfNeeded: pixel.loadUnaligned(as: SIMD8<UInt8>.self))
                                        let w0 = Int32(weight[0])
                                        let w1 = Int32(weight[1])
                                        pairs &+= value &* SIMD8(w0, w0, w0, w0, w1, w1, w1, w1)
                                        pixel += 8
                                        weight += 2
                                    }
                                    var accumulator = pairs.lowHalf &+ pairs.highHalf
                                    if counts[x] & 1 != 0 {
                                        let value = pixel.loadUnaligned(as: SIMD4<UInt8>.self)
                                        accumulator &+= SIMD4<Int32>(truncatingIfNeeded: value) &* Int32(weight.pointee)
                                    }
                                    outRow.storeBytes(of: pack(accumulator), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                                }
                            }
                            }
                        }
                    }
                }
            }
        }
    }

    static func vertical(
        _ source: PixelBuffer, to height: Int, extent: Double, filter: Filter, parallelism: Int = 1,
        kernels: PixelKernels = .active
    ) -> PixelBuffer {
        let plan = Contributions.cached(input: source.height, output: height, extent: extent, filter: filter)
        return vertical(source, plan: plan, parallelism: parallelism, kernels: kernels)
    }

    /// The vertical pass with the table `plan` (one entry per output row).
    static func vertical(
        _ source: PixelBuffer, plan: Contributions, parallelism: Int = 1, kernels: PixelKernels = .active
    ) -> PixelBuffer {
        let height = plan.counts.count
        let rowBytes = source.width &* 4
        let stride = plan.stride
        return source.bytes.withUnsafeBytes { src in
            plan.taps.withUnsafeBufferPointer { weights in
                PixelBuffer(width: source.width, height: height, alphaMode: .premultiplied, storage: .shared) { out in
                    let input = src.baseAddress!
                    let output = UnsafeMutableRawPointer(out.baseAddress!)
                    forEachRowRange(height, work: rowBytes &* plan.stride, parallelism: parallelism) { rows in
                    for y in rows {
                        let first = input + plan.starts[y] &* rowBytes
                        let taps = weights.baseAddress! + y &* stride
                        let count = plan.counts[y]
                        let outRow = output + y &* rowBytes
                        if let level = kernels.vectorLevel {
                            wik_resample_vertical_row(
                                level, first.assumingMemoryBound(to: UInt8.self), rowBytes, taps, count,
                                outRow.assumingMemoryBound(to: UInt8.self))
                            continue
                        }
                        var i = 0
                        // Four pixels per step, all taps down the column, then one pixel at a time.
                        while i &+ 16 <= rowBytes {
                            var accumulator = SIMD16<Int32>()
                            var pixel = first + i
                            for k in 0..<count {
                                let value = pixel.loadUnaligned(as: SIMD16<UInt8>.self)
                                accumulator &+= SIMD16<Int32>(truncatingIfNeeded: value) &* Int32(taps[k])
                                pixel += rowBytes
                            }
                            outRow.storeBytes(of: pack(accumulator), toByteOffset: i, as: SIMD16<UInt8>.self)
                            i &+= 16
                        }
                        while i < rowBytes {
                            var accumulator = SIMD4<Int32>()
                            var pixel = first + i
                            for k in 0..<count {
                                let value = pixel.loadUnaligned(as: SIMD4<UInt8>.self)
                                accumulator &+= SIMD4<Int32>(truncatingIfNeeded: value) &* Int32(taps[k])
                                pixel += rowBytes
                            }
                            outRow.storeBytes(of: pack(accumulator), toByteOffset: i, as: SIMD4<UInt8>.self)
                            i &+= 4
                        }
                    }
                    }
                }
            }
        }
    }
}

extension Resampler {
    /// The least work (multiply-adds) a range of rows must hold to be worth a thread hand-off.
    static let minimumWorkPerRange = 1 << 16

    /// Runs `body` over `0..<count` rows: on this thread, or split into at most `parallelism`
    /// contiguous ranges run at once (`DispatchQueue.concurrentPerform`) when each range still has
    /// at least ``minimumWorkPerRange`` of `work` (the cost of one row). Ranges write disjoint rows.
    static func forEachRowRange(_ count: Int, work: Int, parallelism: Int, _ body: (Range<Int>) -> Void) {
        let affordable = max(1, count.multipliedReportingOverflow(by: max(1, work)).partialValue / minimumWorkPerRange)
        let parts = min(parallelism, count, affordable)
        guard parts > 1 else { return body(0..<count) }
        withoutActuallyEscaping(body) { body in
            let rows = RowRangeBody(run: body)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                rows.run(count * part / parts..<count * (part + 1) / parts)
            }
        }
    }
}

/// The body of a row split, carried into `concurrentPerform`'s `@Sendable` closure.
private struct RowRangeBody: @unchecked Sendable {  // disjoint rows of one buffer; all calls end before it does.
    let run: (Range<Int>) -> Void
}

extension PixelBuffer {
    /// The same bytes under another alpha mode, without converting (for opaque pixels, where
    /// both modes agree).
    func relabelled(_ mode: AlphaMode) -> PixelBuffer {
        var copy = self
        copy.alphaMode = mode
        return copy
    }
}
