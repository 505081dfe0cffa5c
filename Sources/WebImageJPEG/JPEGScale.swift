import WebImage

/// libjpeg-turbo's DCT-domain scaling: decoding at N/8 of the stored size costs a fraction of a full
/// decode and never allocates a full-size bitmap.
enum JPEGScale {
    /// The largest numerator worth asking for: N/8 with N > 8 would enlarge.
    static let fullSize = 8

    /// The output size of a `source`-sized JPEG decoded at `numerator`/8 (libjpeg rounds up).
    static func scaledSize(of source: PixelSize, numerator: Int) -> PixelSize {
        PixelSize(width: ceilDivide(source.width &* numerator, 8), height: ceilDivide(source.height &* numerator, 8))
    }

    /// The smallest numerator N (1...8) whose exact scale N/8 still covers `target` in both
    /// dimensions, so that resampling to `target` only ever reduces.
    ///
    /// The exact scale matters, not libjpeg's rounded-up output size: a 2×2 image at 5/8 comes out
    /// as 2×2 but carries only 1.25 pixels of detail, and an image decoded at its own size must be
    /// decoded at 8/8 to match other libjpeg decoders bit for bit.
    static func numerator(for source: PixelSize, target: PixelSize) -> Int {
        for numerator in 1..<fullSize
        where source.width &* numerator >= target.width &* fullSize
            && source.height &* numerator >= target.height &* fullSize
        {
            return numerator
        }
        return fullSize
    }

    private static func ceilDivide(_ value: Int, _ divisor: Int) -> Int {
        (value + divisor - 1) / divisor
    }
}

/// How a JPEG will be decoded for a set of options: read from the header alone, before any pixel
/// memory is allocated.
struct JPEGDecodePlan: Hashable, Sendable {
    /// The stored size (the header's).
    var sourceSize: PixelSize
    /// The size the caller asked for (thumbnail, scale-down), never larger than the source.
    var targetSize: PixelSize
    /// The DCT scale numerator N: libjpeg decodes at N/8.
    var scaleNumerator: Int
    /// The size libjpeg decodes to at that scale: the largest bitmap the decode allocates.
    var decodedSize: PixelSize
}
