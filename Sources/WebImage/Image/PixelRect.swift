/// A rectangle in pixel coordinates (origin top-left).
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The overlap of two rectangles (empty size when they do not overlap). Overflow-safe: edges
    /// beyond `Int`'s range saturate.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(Self.saturatingSum(x, width), Self.saturatingSum(other.x, other.width))
        let bottom = min(Self.saturatingSum(y, height), Self.saturatingSum(other.y, other.height))
        guard right > left, bottom > top else { return PixelRect(x: left, y: top, width: 0, height: 0) }
        let (width, wide) = right.subtractingReportingOverflow(left)
        let (height, tall) = bottom.subtractingReportingOverflow(top)
        return PixelRect(x: left, y: top, width: wide ? .max : width, height: tall ? .max : height)
    }

    private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

extension PixelBuffer {
    /// The pixels inside `rect`, which must lie within the buffer.
    public func cropped(to rect: PixelRect) throws -> PixelBuffer {
        guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0, rect.width <= width - rect.x,
            rect.height <= height - rect.y
        else { throw WebImageError(.badImageData, "crop \(rect) is outside \(size)") }
        return bytes.withUnsafeBufferPointer { src in
            PixelBuffer(width: rect.width, height: rect.height, alphaMode: alphaMode) { out in
                let rowBytes = rect.width * 4
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    for i in 0..<rowBytes { out[row * rowBytes + i] = src[from + i] }
                }
            }
        }
    }

    /// Copies `other` (same alpha mode) into this buffer with its top-left at `origin`, clipped;
    /// replaces the pixels (no blending).
    public mutating func draw(_ other: PixelBuffer, at origin: (x: Int, y: Int)) {
        let source = other.converted(to: alphaMode)
        let x0 = max(0, origin.x)
        let x1 = min(width, origin.x + source.width)
        guard x0 < x1 else { return }
        for y in max(0, origin.y)..<min(height, origin.y + source.height) {
            let sy = y - origin.y
            for x in x0..<x1 {
                let s = (sy * source.width + (x - origin.x)) * 4
                let d = (y * width + x) * 4
                bytes[d] = source.bytes[s]
                bytes[d + 1] = source.bytes[s + 1]
                bytes[d + 2] = source.bytes[s + 2]
                bytes[d + 3] = source.bytes[s + 3]
            }
        }
    }
}
