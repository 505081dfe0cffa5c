import WebImage

/// Maps pixels to the nearest entry of a palette, optionally with Floyd–Steinberg dithering.
///
/// Nearest entries are found by exhaustive search (at most 256 entries) and memoised per 6-bit
/// colour cell, so a photo costs about one search per distinct cell.
struct PaletteMapper {
    let palette: [RGBA8]
    private var memo: [Int16]

    init(palette: [RGBA8]) {
        precondition(!palette.isEmpty && palette.count <= 256, "palette must have 1…256 entries")
        self.palette = palette
        memo = [Int16](repeating: -1, count: 1 << 18)
    }

    /// The index of the palette entry nearest to (r, g, b) (squared distance, weighted 3:4:2).
    mutating func nearest(_ r: Int, _ g: Int, _ b: Int) -> Int {
        let cell = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
        if memo[cell] >= 0 { return Int(memo[cell]) }
        // Search from the cell's centre so the memo is consistent for every colour in it.
        let cr = (r & ~3) | 2, cg = (g & ~3) | 2, cb = (b & ~3) | 2
        var best = 0
        var bestDistance = Int.max
        for (index, color) in palette.enumerated() {
            let dr = Int(color.r) - cr, dg = Int(color.g) - cg, db = Int(color.b) - cb
            let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }
        memo[cell] = Int16(best)
        return best
    }

    /// Palette indices for straight-alpha `source`; pixels under `alphaThreshold` get
    /// `transparentIndex`.
    mutating func map(_ source: PixelBuffer, alphaThreshold: UInt8, transparentIndex: Int, dithering: Bool)
        -> [UInt8]
    {
        let width = source.width, height = source.height
        var indices = [UInt8](repeating: 0, count: width * height)
        let transparent = UInt8(truncatingIfNeeded: transparentIndex)
        // Error rows (current and next) in 1/16 units, with one pixel of padding either side.
        var current = [Int](repeating: 0, count: (width + 2) * 3)
        var next = current
        let bytes = source.bytes
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 4
                guard bytes[p + 3] >= alphaThreshold else {
                    indices[y * width + x] = transparent
                    continue
                }
                let e = (x + 1) * 3
                var r = Int(bytes[p]), g = Int(bytes[p + 1]), b = Int(bytes[p + 2])
                if dithering {
                    r = min(255, max(0, r + current[e] / 16))
                    g = min(255, max(0, g + current[e + 1] / 16))
                    b = min(255, max(0, b + current[e + 2] / 16))
                }
                let index = nearest(r, g, b)
                indices[y * width + x] = UInt8(index)
                guard dithering else { continue }
                let chosen = palette[index]
                let error = (r - Int(chosen.r), g - Int(chosen.g), b - Int(chosen.b))
                for (c, value) in [error.0, error.1, error.2].enumerated() {
                    current[e + 3 + c] += value * 7
                    next[e - 3 + c] += value * 3
                    next[e + c] += value * 5
                    next[e + 3 + c] += value
                }
            }
            if dithering {
                swap(&current, &next)
                for i in next.indices { next[i] = 0 }
            }
        }
        return indices
    }
}
