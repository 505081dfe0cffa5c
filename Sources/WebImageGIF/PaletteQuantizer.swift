public import WebImage

/// An image reduced to palette indices: what a GIF image stores.
public struct QuantizedImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height` palette indices, row-major.
    public var indices: [UInt8]
    /// The opaque colours, at most 256 (255 when there is a transparent index).
    public var palette: [RGBA8]
    /// The index used for transparent pixels (`palette.count`), or nil when every pixel is opaque.
    public var transparentIndex: Int?
    /// Whether the palette holds every colour of the source exactly (no reduction was needed).
    public var isExact: Bool
}

/// Reduces RGBA pixels to a palette of at most 256 entries for GIF encoding (our own: median cut,
/// optional Floyd–Steinberg dithering; libimagequant is GPL).
///
/// - Pixels with alpha below ``alphaThreshold`` become one transparent index; the others are
///   treated as opaque (their straight colour is kept).
/// - An image with at most ``maxColors`` distinct opaque colours (one fewer with transparency) gets
///   an exact palette and maps losslessly, whatever the quality.
/// - Otherwise a median cut over a 6-bit-per-channel histogram picks the palette (each entry the
///   mean of the pixels in its box), and pixels map to the nearest entry, with Floyd–Steinberg
///   error diffusion when ``dithering`` is on.
///
/// ```swift
/// let quantized = PaletteQuantizer(maxColors: 64).quantize(pixels)
/// print(quantized.palette.count, quantized.transparentIndex ?? -1)
/// ```
public struct PaletteQuantizer: Sendable {
    /// Palette entries available, 2…256, including the transparent index when one is needed.
    public var maxColors: Int
    /// Whether reduced images are dithered (Floyd–Steinberg).
    public var dithering: Bool
    /// Pixels with a lower alpha become transparent.
    public var alphaThreshold: UInt8

    /// A quantizer with `maxColors` entries (clamped to 2…256).
    public init(maxColors: Int = 256, dithering: Bool = true, alphaThreshold: UInt8 = 128) {
        self.maxColors = min(256, max(2, maxColors))
        self.dithering = dithering
        self.alphaThreshold = alphaThreshold
    }

    /// The palette size for an encoding quality: 256 from 0.8 up (the default 0.9 included),
    /// falling linearly to 16 colours at quality 0.
    public static func colorCount(forQuality quality: Double) -> Int {
        let q = quality.isNaN ? 1 : min(1, max(0, quality))
        if q >= 0.8 { return 256 }
        return 16 + Int((240 * q / 0.8).rounded(.down))
    }

    /// Quantizes `pixels` (any alpha mode).
    public func quantize(_ pixels: PixelBuffer) -> QuantizedImage {
        let source = pixels.unpremultiplied()
        let count = source.width * source.height
        var hasTransparency = false
        source.bytes.withUnsafeBufferPointer { p in
            for i in 0..<count where p[i * 4 + 3] < alphaThreshold {
                hasTransparency = true
                break
            }
        }
        let colorLimit = hasTransparency ? maxColors - 1 : maxColors
        if let exact = exactPalette(source, limit: colorLimit, hasTransparency: hasTransparency) {
            return exact
        }
        let palette = MedianCut.palette(for: source, alphaThreshold: alphaThreshold, colors: colorLimit)
        var mapper = PaletteMapper(palette: palette)
        let indices = mapper.map(
            source, alphaThreshold: alphaThreshold, transparentIndex: palette.count, dithering: dithering)
        return QuantizedImage(
            width: source.width, height: source.height, indices: indices, palette: palette,
            transparentIndex: hasTransparency ? palette.count : nil, isExact: false)
    }

    /// The lossless mapping when the image has at most `limit` distinct opaque colours.
    private func exactPalette(_ source: PixelBuffer, limit: Int, hasTransparency: Bool) -> QuantizedImage? {
        var lookup: [UInt32: UInt8] = [:]
        var palette: [RGBA8] = []
        let count = source.width * source.height
        var indices = [UInt8](repeating: 0, count: count)
        let transparent = UInt8(truncatingIfNeeded: limit)  // == palette.count at the end, or unused
        let ok = source.bytes.withUnsafeBufferPointer { p in
            indices.withUnsafeMutableBufferPointer { out -> Bool in
                // Runs of one colour are the rule in images with few colours: the last colour's
                // index answers them without a dictionary lookup (keys never reach UInt32.max).
                var lastKey = UInt32.max
                var lastIndex: UInt8 = 0
                for i in 0..<count {
                    if p[i &* 4 &+ 3] < alphaThreshold {
                        out[i] = transparent
                        continue
                    }
                    let key = UInt32(p[i &* 4]) << 16 | UInt32(p[i &* 4 &+ 1]) << 8 | UInt32(p[i &* 4 &+ 2])
                    if key == lastKey {
                        out[i] = lastIndex
                        continue
                    }
                    if let index = lookup[key] {
                        lastIndex = index
                    } else {
                        guard palette.count < limit else { return false }
                        lastIndex = UInt8(palette.count)
                        lookup[key] = lastIndex
                        palette.append(RGBA8(r: p[i &* 4], g: p[i &* 4 &+ 1], b: p[i &* 4 &+ 2]))
                    }
                    lastKey = key
                    out[i] = lastIndex
                }
                return true
            }
        }
        guard ok else { return nil }
        if palette.isEmpty { palette.append(.black) }  // fully transparent image
        if hasTransparency {
            // The transparent index is the first entry after the colours.
            let index = UInt8(palette.count)
            if index != transparent {
                for i in 0..<count where indices[i] == transparent && source.bytes[i * 4 + 3] < alphaThreshold {
                    indices[i] = index
                }
            }
        }
        return QuantizedImage(
            width: source.width, height: source.height, indices: indices, palette: palette,
            transparentIndex: hasTransparency ? palette.count : nil, isExact: true)
    }
}
