import WebImage

/// Median-cut palette selection over a histogram of 6 bits per channel.
///
/// Repeatedly splits the box whose pixels spread most (pixel count × longest side) at the
/// pixel-weighted median of its longest axis, until there are enough boxes; each palette entry
/// is the mean colour of the pixels in its box (from full 8-bit sums, so flat colours stay exact),
/// then refined by a few k-means passes.
enum MedianCut {
    /// One occupied histogram cell.
    struct Cell {
        var key: (UInt8, UInt8, UInt8)  // 6-bit channel values
        var count: Int
        var sum: (Int, Int, Int)  // 8-bit channel sums

        func component(_ axis: Int) -> UInt8 {
            axis == 0 ? key.0 : axis == 1 ? key.1 : key.2
        }
    }

    /// A range of `cells` (which are kept sorted inside each box by the axis it was split on).
    struct Box {
        var range: Range<Int>
        var count: Int
        var longestAxis: Int
        var longestSide: Int
        var priority: Int { longestSide == 0 || range.count < 2 ? -1 : count * longestSide }
    }

    /// A palette of at most `colors` opaque colours for the pixels with alpha ≥ `alphaThreshold`.
    static func palette(for source: PixelBuffer, alphaThreshold: UInt8, colors: Int) -> [RGBA8] {
        var cells = histogram(source, alphaThreshold: alphaThreshold)
        guard !cells.isEmpty else { return [.black] }
        var boxes = [makeBox(cells, 0..<cells.count)]
        while boxes.count < colors {
            guard let (position, box) = boxes.enumerated().max(by: { $0.element.priority < $1.element.priority }),
                box.priority > 0
            else { break }
            let axis = box.longestAxis
            cells[box.range].sort { $0.component(axis) < $1.component(axis) }
            // The first cell at which half of the box's pixels lie before it (never the first).
            var seen = 0
            var split = box.range.lowerBound + 1
            for i in box.range {
                seen += cells[i].count
                if seen * 2 >= box.count {
                    split = min(max(i + 1, box.range.lowerBound + 1), box.range.upperBound - 1)
                    break
                }
            }
            boxes[position] = makeBox(cells, box.range.lowerBound..<split)
            boxes.append(makeBox(cells, split..<box.range.upperBound))
        }
        let palette = boxes.map { box in
            var r = 0, g = 0, b = 0
            for cell in cells[box.range] {
                r += cell.sum.0
                g += cell.sum.1
                b += cell.sum.2
            }
            let n = max(1, box.count)
            return RGBA8(r: UInt8((r + n / 2) / n), g: UInt8((g + n / 2) / n), b: UInt8((b + n / 2) / n))
        }
        // A few k-means (Lloyd) passes over the cells move each entry to the mean of the pixels
        // nearest to it; fewer passes when the histogram is large.
        let work = cells.count * palette.count
        return refine(palette, cells: cells, passes: work > 40_000_000 ? 1 : work > 10_000_000 ? 2 : 4)
    }

    /// Lloyd iterations: assign every cell to its nearest entry, then move entries to the means.
    static func refine(_ palette: [RGBA8], cells: [Cell], passes: Int) -> [RGBA8] {
        var palette = palette
        let k = palette.count
        for _ in 0..<passes {
            var sums = [Int](repeating: 0, count: k * 3)
            var counts = [Int](repeating: 0, count: k)
            var pr = palette.map { Int($0.r) }, pg = palette.map { Int($0.g) }, pb = palette.map { Int($0.b) }
            for cell in cells {
                let r = cell.sum.0 / cell.count, g = cell.sum.1 / cell.count, b = cell.sum.2 / cell.count
                var best = 0
                var bestDistance = Int.max
                for j in 0..<k {
                    let dr = pr[j] - r, dg = pg[j] - g, db = pb[j] - b
                    let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
                    if distance < bestDistance {
                        bestDistance = distance
                        best = j
                    }
                }
                counts[best] += cell.count
                sums[best * 3] += cell.sum.0
                sums[best * 3 + 1] += cell.sum.1
                sums[best * 3 + 2] += cell.sum.2
            }
            for j in 0..<k where counts[j] > 0 {
                let n = counts[j]
                pr[j] = (sums[j * 3] + n / 2) / n
                pg[j] = (sums[j * 3 + 1] + n / 2) / n
                pb[j] = (sums[j * 3 + 2] + n / 2) / n
                palette[j] = RGBA8(r: UInt8(pr[j]), g: UInt8(pg[j]), b: UInt8(pb[j]))
            }
        }
        return palette
    }

    private static func histogram(_ source: PixelBuffer, alphaThreshold: UInt8) -> [Cell] {
        let bins = 1 << 18
        var counts = [Int](repeating: 0, count: bins)
        var sums = [Int](repeating: 0, count: bins * 3)
        source.bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i + 3] >= alphaThreshold {
                    let bin = Int(p[i] >> 2) << 12 | Int(p[i + 1] >> 2) << 6 | Int(p[i + 2] >> 2)
                    counts[bin] += 1
                    sums[bin * 3] += Int(p[i])
                    sums[bin * 3 + 1] += Int(p[i + 1])
                    sums[bin * 3 + 2] += Int(p[i + 2])
                }
                i += 4
            }
        }
        var cells: [Cell] = []
        for bin in 0..<bins where counts[bin] > 0 {
            cells.append(
                Cell(
                    key: (UInt8(bin >> 12), UInt8((bin >> 6) & 63), UInt8(bin & 63)), count: counts[bin],
                    sum: (sums[bin * 3], sums[bin * 3 + 1], sums[bin * 3 + 2])))
        }
        return cells
    }

    private static func makeBox(_ cells: [Cell], _ range: Range<Int>) -> Box {
        var low: [UInt8] = [63, 63, 63], high: [UInt8] = [0, 0, 0]
        var count = 0
        for cell in cells[range] {
            count += cell.count
            for axis in 0..<3 {
                low[axis] = min(low[axis], cell.component(axis))
                high[axis] = max(high[axis], cell.component(axis))
            }
        }
        // Green counts a little more and blue a little less, as the eye does.
        let sides = [
            (Int(high[0]) - Int(low[0])) * 3, (Int(high[1]) - Int(low[1])) * 4, (Int(high[2]) - Int(low[2])) * 2,
        ]
        let axis = sides[1] >= sides[0] && sides[1] >= sides[2] ? 1 : (sides[0] >= sides[2] ? 0 : 2)
        return Box(range: range, count: count, longestAxis: axis, longestSide: sides[axis])
    }
}
