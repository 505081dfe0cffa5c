// Box reduction by whole factors: the first step of a large reduction (Pillow's `reduce`).
extension Resampler {
    /// The largest factor per direction: 4096 × 4096 × 255 still fits a UInt32 sum.
    static let maximumBoxFactor = 4096

    /// `source` (premultiplied) averaged over blocks of `factorX × factorY` pixels; the last
    /// column and row of blocks average the pixels they have.
    static func boxReduce(_ source: PixelBuffer, factorX: Int, factorY: Int) -> PixelBuffer {
        let factorX = min(factorX, maximumBoxFactor)
        let factorY = min(factorY, maximumBoxFactor)
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
}
