import CPixelKernels

/// The vertical box passes row by row: the three running sums advance down the image together,
/// each keeping only the rows the next one still needs in a ring.
///
/// The strip layout (``BoxBlur`` reads 64 columns of every row, then the next 64) reads memory with
/// a stride of a whole row, which the hardware prefetcher cannot follow: on a 12 MP image that wait
/// was a third of the vertical passes. Here every row is read and written once, front to back, and
/// every inner loop runs over a whole row of contiguous values. The sums are the strip layout's
/// exactly (same edges, same integers), so the pixels are identical.
extension BoxBlur {
    /// The most ring memory the row layout may use; wider images or larger σ use the strips.
    static let maxRingBytes = 48 << 20

    /// Whether ``verticalRows(_:into:radii:total:)`` takes a `width`-wide image with `radii`.
    static func rowsFit(width: Int, radii: [Int]) -> Bool {
        guard radii.count == 3 else { return false }
        let lanes = width.multipliedReportingOverflow(by: 4)
        let rows = 2 * radii[1] + 2 + 2 * radii[2] + 2 + 3
        let bytes = lanes.partialValue.multipliedReportingOverflow(by: rows * 4)
        return !lanes.overflow && !bytes.overflow && bytes.partialValue <= maxRingBytes
    }

    /// The three vertical box passes of radii `radii` (exact sums: `255 · total` fits in 32 bits)
    /// from `source` into `out`, normalised by `total`, on the vector kernels of `kernels` where
    /// it has them.
    static func verticalRows(
        _ source: PixelBuffer, into out: inout PixelBuffer, radii: [Int], total: Int64, kernels: PixelKernels = .active
    ) {
        let (width, height) = (source.width, source.height)
        let lanes = width * 4
        let level = kernels.vectorLevel
        let multiplier = UInt32(levelMultiplier(total: total))
        // Stage k's ring holds the rows stage k + 1 still needs: 2r + 2 rows of stage k + 1's radius.
        var first = Stage(lanes: lanes, radius: radii[0], ringRows: 2 * radii[1] + 2)
        var second = Stage(lanes: lanes, radius: radii[1], ringRows: 2 * radii[2] + 2)
        var third = Stage(lanes: lanes, radius: radii[2], ringRows: 0)
        defer {
            first.deallocate()
            second.deallocate()
            third.deallocate()
        }
        source.bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                guard let bytes = src.baseAddress else { return }
                let sourceRow = { (y: Int) in UnsafeRawPointer(bytes + y &* lanes) }
                // Stage 1 reads the source bytes; stages 2 and 3 the ring of the stage before.
                func advanceFirst(upTo row: Int) {
                    while first.produced <= row { first.produceNext(height: height, bytesRow: sourceRow, level: level) }
                }
                func advanceSecond(upTo row: Int) {
                    while second.produced <= row {
                        advanceFirst(upTo: min(height - 1, second.produced + second.radius))
                        second.produceNext(height: height, previous: first, level: level)
                    }
                }
                for y in 0..<height {
                    advanceSecond(upTo: min(height - 1, y + third.radius))
                    third.produceNext(height: height, previous: second, level: level)
                    if let level {
                        wik_blur_store(level, third.sum, lanes, multiplier, dst.baseAddress! + y &* lanes)
                    } else {
                        store(third.sumBuffer, at: 0, into: dst, at: y &* lanes, count: lanes, exact: true, total: total)
                    }
                }
            }
        }
    }

    /// One running-sum pass: its sum, the rows it produced so far (the last `ringRows` of them kept).
    struct Stage {
        let lanes: Int
        let radius: Int
        let ringRows: Int
        let sum: UnsafeMutablePointer<Int32>
        let ring: UnsafeMutablePointer<Int32>?
        /// How many rows have been produced (row `produced - 1` is the last).
        var produced = 0

        init(lanes: Int, radius: Int, ringRows: Int) {
            self.lanes = lanes
            self.radius = radius
            self.ringRows = ringRows
            sum = .allocate(capacity: max(1, lanes))
            sum.initialize(repeating: 0, count: max(1, lanes))
            if ringRows > 0 {
                let ring = UnsafeMutablePointer<Int32>.allocate(capacity: ringRows * lanes)
                ring.initialize(repeating: 0, count: ringRows * lanes)
                self.ring = ring
            } else {
                ring = nil
            }
        }

        func deallocate() {
            sum.deallocate()
            ring?.deallocate()
        }

        var sumBuffer: UnsafeMutableBufferPointer<Int32> { UnsafeMutableBufferPointer(start: sum, count: lanes) }

        /// Produced row `row` (one of the last `ringRows`).
        func row(_ row: Int) -> UnsafeMutablePointer<Int32> {
            ring.unsafelyUnwrapped + (row % ringRows) &* lanes
        }

        /// Makes the next row from a stage that has produced every row it needs (on the C kernels
        /// of `level` unless it is nil).
        mutating func produceNext(height: Int, previous: Stage, level: Int32? = nil) {
            let (lanes, r) = (lanes, radius)
            if produced == 0 {
                for i in -r...r {
                    let input = previous.row(min(max(i, 0), height - 1))
                    for l in 0..<lanes { sum[l] = sum[l] &+ input[l] }
                }
            } else {
                let added = previous.row(min(produced &+ r, height - 1))
                let removed = previous.row(max(produced &- r &- 1, 0))
                if let level {
                    // The kernel also copies the new sum into the ring.
                    wik_blur_add_rows(level, sum, added, removed, lanes, ring == nil ? nil : row(produced))
                    produced &+= 1
                    return
                }
                for l in 0..<lanes { sum[l] = sum[l] &+ added[l] &- removed[l] }
            }
            keep()
        }

        /// Makes the next row from 8-bit source rows (on the C kernels of `level` unless it is nil).
        mutating func produceNext(height: Int, bytesRow: (Int) -> UnsafeRawPointer, level: Int32? = nil) {
            let (lanes, r) = (lanes, radius)
            if produced == 0 {
                for i in -r...r {
                    let input = bytesRow(min(max(i, 0), height - 1)).assumingMemoryBound(to: UInt8.self)
                    for l in 0..<lanes { sum[l] = sum[l] &+ Int32(input[l]) }
                }
            } else {
                let added = bytesRow(min(produced &+ r, height - 1)).assumingMemoryBound(to: UInt8.self)
                let removed = bytesRow(max(produced &- r &- 1, 0)).assumingMemoryBound(to: UInt8.self)
                if let level {
                    wik_blur_add_byte_rows(level, sum, added, removed, lanes, ring == nil ? nil : row(produced))
                    produced &+= 1
                    return
                }
                for l in 0..<lanes { sum[l] = sum[l] &+ Int32(added[l]) &- Int32(removed[l]) }
            }
            keep()
        }

        /// Copies the sum (the row just produced) into the ring.
        private mutating func keep() {
            if ring != nil { row(produced).update(from: sum, count: lanes) }
            produced &+= 1
        }
    }
}
