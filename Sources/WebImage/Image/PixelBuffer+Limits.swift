extension PixelBuffer {
    /// Checks a size from input before any pixel memory is allocated for it.
    ///
    /// Throws ``WebImageError/Code/badImageData`` for an empty or negative side and
    /// ``WebImageError/Code/tooLarge`` when `width × height` overflows or exceeds `maxPixelCount`
    /// (the multiply is checked, so no size traps).
    ///
    /// ```swift
    /// try PixelBuffer.checkSize(PixelSize(width: w, height: h), maxPixelCount: ImageDecodingOptions.defaultMaxPixelCount)
    /// ```
    public static func checkSize(_ size: PixelSize, maxPixelCount: Int) throws {
        guard size.width > 0, size.height > 0 else {
            throw WebImageError.badData("a pixel buffer cannot have the empty size \(size)")
        }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        // 4 bytes a pixel must fit in an Int as well.
        guard !overflow, pixels <= Int.max / 4 else {
            throw WebImageError(.tooLarge, "\(size.width)×\(size.height) pixels overflow the address space")
        }
        guard pixels <= maxPixelCount else {
            throw WebImageError.tooManyPixels(width: size.width, height: size.height, limit: maxPixelCount)
        }
    }

    /// A buffer filled with one colour, after ``checkSize(_:maxPixelCount:)``: a size from input
    /// throws instead of trapping or allocating gigabytes.
    ///
    /// ```swift
    /// let canvas = try PixelBuffer(width: w, height: h, alphaMode: .premultiplied, maxPixelCount: 100_000_000)
    /// ```
    public init(width: Int, height: Int, alphaMode: AlphaMode, maxPixelCount: Int, fill: RGBA8 = .clear) throws {
        try Self.checkSize(PixelSize(width: width, height: height), maxPixelCount: maxPixelCount)
        self.init(width: width, height: height, alphaMode: alphaMode, fill: fill)
    }

    /// A buffer whose bytes `body` writes, after ``checkSize(_:maxPixelCount:)``.
    public init(
        width: Int, height: Int, alphaMode: AlphaMode, maxPixelCount: Int,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) throws {
        try Self.checkSize(PixelSize(width: width, height: height), maxPixelCount: maxPixelCount)
        try self.init(width: width, height: height, alphaMode: alphaMode, initializingWith: body)
    }
}
