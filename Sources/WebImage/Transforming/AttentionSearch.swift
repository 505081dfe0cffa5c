/// Finds the most detailed window of an image for ``GravityCropTransformer/Anchor/attention``.
enum AttentionSearch {
    /// The most cells on the longer side of the energy grid.
    static let maxCells = 256

    /// The window of `window` size (at most the buffer's) with the most edge energy.
    static func bestWindow(_ window: PixelSize, in pixels: PixelBuffer) -> PixelRect {
        let (w, h) = (pixels.width, pixels.height)
        let cell = max(1, (max(w, h) + maxCells - 1) / maxCells)
        let (cw, ch) = ((w + cell - 1) / cell, (h + cell - 1) / cell)
        // Summed-area table of per-cell energy, (cw + 1) × (ch + 1), zero first row and column.
        var table = [Int64](repeating: 0, count: (cw + 1) * (ch + 1))
        let luma = lumaWeightedByAlpha(pixels)
        luma.withUnsafeBufferPointer { l in
            table.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    let up = max(0, y - 1) &* w
                    let down = min(h - 1, y + 1) &* w
                    let row = y &* w
                    let cellRow = (y / cell + 1) &* (cw + 1)
                    for x in 0..<w {
                        let left = Int32(l[row &+ max(0, x - 1)])
                        let right = Int32(l[row &+ min(w - 1, x + 1)])
                        let energy = abs(right &- left) &+ abs(Int32(l[down &+ x]) &- Int32(l[up &+ x]))
                        t[cellRow &+ x / cell &+ 1] &+= Int64(energy)
                    }
                }
                // Integrate: rows, then columns.
                for cy in 1...ch {
                    for cx in 1...cw {
                        let i = cy &* (cw + 1) &+ cx
                        t[i] &+= t[i &- 1] &+ t[i &- cw &- 1] &- t[i &- cw &- 2]
                    }
                }
            }
        }
        let spare = (x: w - window.width, y: h - window.height)
        let centre = (x: Double(spare.x) / 2, y: Double(spare.y) / 2)
        var best = (score: Int64.min, distance: Double.infinity, x: spare.x / 2, y: spare.y / 2)
        for y in positions(upTo: spare.y, step: cell) {
            for x in positions(upTo: spare.x, step: cell) {
                let (x0, y0) = (x / cell, y / cell)
                let x1 = min(cw, (x + window.width + cell / 2) / cell)
                let y1 = min(ch, (y + window.height + cell / 2) / cell)
                let score = table[y1 * (cw + 1) + x1] - table[y0 * (cw + 1) + x1] - table[y1 * (cw + 1) + x0]
                    + table[y0 * (cw + 1) + x0]
                let dx = Double(x) - centre.x
                let dy = Double(y) - centre.y
                let distance = dx * dx + dy * dy
                if score > best.score || (score == best.score && distance < best.distance) {
                    best = (score, distance, x, y)
                }
            }
        }
        return PixelRect(x: best.x, y: best.y, width: window.width, height: window.height)
    }

    /// 0, step, 2·step, … up to `limit`, and `limit` itself (and its centre, for ties).
    private static func positions(upTo limit: Int, step: Int) -> [Int] {
        var result = Array(stride(from: 0, through: limit, by: step))
        if result.last != limit { result.append(limit) }
        if !result.contains(limit / 2) { result.append(limit / 2) }
        return result
    }

    /// Rec. 601 luma of straight colour, times alpha: transparent regions have no detail.
    private static func lumaWeightedByAlpha(_ pixels: PixelBuffer) -> [UInt8] {
        let straight = pixels.alphaMode == .straight
        return pixels.bytes.withUnsafeBufferPointer { p in
            [UInt8](unsafeUninitializedCapacity: pixels.width * pixels.height) { out, count in
                for i in 0..<pixels.width * pixels.height {
                    let o = i &* 4
                    let y = (77 &* UInt32(p[o]) &+ 150 &* UInt32(p[o &+ 1]) &+ 29 &* UInt32(p[o &+ 2])) >> 8
                    // Premultiplied colour already carries alpha.
                    out[i] = UInt8(straight ? (y &* UInt32(p[o &+ 3]) &+ 127) / 255 : y)
                }
                count = pixels.width * pixels.height
            }
        }
    }
}
