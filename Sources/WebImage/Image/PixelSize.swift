/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width × height`, or `Int.max` when that overflows.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    /// Bytes of 8-bit RGBA pixels at this size, or `Int.max` when that overflows.
    public var rgbaByteCount: Int {
        let (bytes, overflow) = pixelCount.multipliedReportingOverflow(by: 4)
        return overflow ? .max : bytes
    }

    public var description: String { "\(width)×\(height)" }
}
