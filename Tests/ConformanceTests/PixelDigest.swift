import Crypto
import WebImage

/// Checksums and fingerprints computed the way the corpus manifest defines them.
enum PixelDigest {
    /// SHA-256 (hex) of straight-alpha RGBA bytes.
    static func sha256(_ pixels: PixelBuffer) -> String {
        hex(SHA256.hash(data: pixels.unpremultiplied().bytes))
    }

    /// SHA-256 (hex) with RGB set to 0 wherever alpha is 0.
    static func zeroedSHA256(_ pixels: PixelBuffer) -> String {
        var straight = pixels.unpremultiplied()
        var i = 0
        while i < straight.bytes.count {
            if straight.bytes[i + 3] == 0 {
                straight.bytes[i] = 0
                straight.bytes[i + 1] = 0
                straight.bytes[i + 2] = 0
            }
            i += 4
        }
        return hex(SHA256.hash(data: straight.bytes))
    }

    /// 64 cell means of straight RGBA, row-major (the manifest's `fingerprint_8x8`).
    static func fingerprint(_ pixels: PixelBuffer) -> [[Double]] {
        let straight = pixels.unpremultiplied()
        let (w, h) = (straight.width, straight.height)
        func span(_ j: Int, _ n: Int) -> Range<Int> {
            let lo = j * n / 8
            let hi = min(max((j + 1) * n / 8, lo + 1), n)
            return lo..<hi
        }
        var cells: [[Double]] = []
        for row in 0..<8 {
            for column in 0..<8 {
                var sums = [0.0, 0.0, 0.0, 0.0]
                var count = 0.0
                for y in span(row, h) {
                    for x in span(column, w) {
                        let i = (y * w + x) * 4
                        for c in 0..<4 { sums[c] += Double(straight.bytes[i + c]) }
                        count += 1
                    }
                }
                cells.append(sums.map { count > 0 ? $0 / count : 0 })
            }
        }
        return cells
    }

    /// The largest absolute difference between two fingerprints' cells.
    static func maxCellDifference(_ a: [[Double]], _ b: [[Double]]) -> Double {
        var worst = 0.0
        for (cellA, cellB) in zip(a, b) {
            for (x, y) in zip(cellA, cellB) { worst = max(worst, abs(x - y)) }
        }
        return worst
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }
}
