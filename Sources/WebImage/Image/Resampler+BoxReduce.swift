import CPixelKernels

// Box reduction by whole factors: the first step of a large reduction (Pillow's `reduce`).
extension Resampler {
    /// The largest factor per direction: 4096 × 4096 × 255 still fits a UInt32 sum.
    static let maximumBoxFactor = 4096

    /// `source` (premultiplied) averaged over blocks of `factorX × factorY` pixels; the last
    /// column and row of blocks average the pixels they have. 2 × 2, the usual factor of a
    /// reduction to a quarter or less, runs the vector kernels of `kernels` when it has them.
    static func boxReduce(_ source: PixelBuffer, factorX: Int, factorY: Int, kernels: PixelKernels = .active)
        -> PixelBuffer
    {
        let factorX = min(factorX, maximumBoxFactor)
        let factorY = min(factorY, maximumBoxFactor)
        if factorX == 2, factorY == 2, let level = kernels.vectorLevel {
            return boxReduce2(source, level: level)
        }
        let width = source.width
        let height = source.height
        let outWidth = (width + factorX - 1) / factorX
        let outHeight = (height + factorY - 1) / factorY
        let rowBytes = width &* 4
        var columnSums = [UInt32](repeating: 0, count: rowBytes)
        return source.bytes.withUnsafeBufferPointer { src in
            columnSums.withUnsafeMutableBufferPointer { sums in
                PixelBuffer(width: outWidth, height: outHeight, alphaMode: source.alphaMode, storage: .shared) { out in
                    let input = src.baseAddress!
                    let column = sums.baseAddress!
                    let output = UnsafeMutableRawPointer(out.baseAddress!)
                    for outY in 0..<outHeight {
                        let firstRow = outY &* factorY
                        let rows = min(factorY, height &- firstRow)
                        column.update(repeating: 0, count: rowBytes)
                        for r in 0..<rows {
                            let row = input + (firstRow &+ r) &* rowBytes
                            for i in 0..<rowBytes { column[i] &+= UInt32(row[i]) }
                        }
                        let outRow = output + outY &* outWidth &* 4
                        for outX in 0..<outWidth {
                            let firstColumn = outX &* factorX
                            let columns = min(factorX, width &- firstColumn)
                            var total = SIMD4<UInt32>()
                            var pixel = UnsafeRawPointer(column + firstColumn &* 4)
                            for _ in 0..<columns {
                                total &+= pixel.loadUnaligned(as: SIMD4<UInt32>.self)
                                pixel += 16
                            }
                            let count = UInt32(rows &* columns)
                            let average = (total &+ SIMD4(repeating: count / 2)) / SIMD4(repeating: count)
                            outRow.storeBytes(
                                of: SIMD4<UInt8>(truncatingIfNeeded: average), toByteOffset: outX &* 4, as: SIMD4<UInt8>.self)
                        }
                    }
                }
            }
        }
    }

    /// ``boxReduce(_:factorX:factorY:kernels:)`` by 2 × 2 on the C kernels of `level`.
    private static func boxReduce2(_ source: PixelBuffer, level: Int32) -> PixelBuffer {
        let (width, height) = (source.width, source.height)
        let outWidth = (width + 1) / 2
        let rowBytes = width &* 4
        return source.bytes.withUnsafeBufferPointer { src in
            PixelBuffer(width: outWidth, height: (height + 1) / 2, alphaMode: source.alphaMode, storage: .shared) { out in
                let input = src.baseAddress!
                for outY in 0..<(height + 1) / 2 {
                    let first = input + 2 &* outY &* rowBytes
                    let second = 2 &* outY &+ 1 < height ? first + rowBytes : nil
                    wik_box_reduce2_row(level, first, second, width, out.baseAddress! + outY &* outWidth &* 4)
                }
            }
        }
    }
}
