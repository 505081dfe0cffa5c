/// A colour transform from 16-bit RGBA samples to 8-bit sRGB RGBA, made by
/// ``ColorConverting/wideTransform(for:)`` for decoders of high-bit-depth sources: the profile
/// is applied at the source's precision and the result rounded to 8 bits once.
///
/// Samples are native-endian `UInt16`, R, G, B, A, straight alpha (alpha is copied, rescaled to
/// 8 bits). Safe to call from several threads at once on distinct rows.
///
/// ```swift
/// if let transform = converter.wideTransform(for: profile) {
///     transform.convert(rows16, sourceRowBytes: width * 8, into: rows8, destinationRowBytes: width * 4, width: width, rows: 16)
/// }
/// ```
public protocol WideColorTransform: Sendable {
    /// Converts `rows` rows of `width` pixels from `source` (16-bit RGBA, `sourceRowBytes` apart)
    /// into `destination` (8-bit straight RGBA, `destinationRowBytes` apart).
    func convert(
        _ source: UnsafeRawPointer, sourceRowBytes: Int, into destination: UnsafeMutableRawPointer, destinationRowBytes: Int,
        width: Int, rows: Int)
}

extension ImageDecodingOptions {
    /// How many rows of 16-bit samples a decoder holds at once when it converts band by band.
    package static let wideBandRowCount = 64

    /// The transform a decoder of a source of `bitDepth` bits a sample, carrying `profile`,
    /// converts with at the source's precision: one when the colour policy converts to sRGB, the
    /// source has more than 8 bits and `converter` makes one for the profile (it makes none for
    /// sRGB and near-sRGB profiles); nil when the decoder takes the 8-bit path.
    package func wideTransform(
        for profile: ColorProfile?, bitDepth: Int, converter: (any ColorConverting)?
    ) -> (any WideColorTransform)? {
        guard colorPolicy == .sRGB, bitDepth > 8, let profile, let converter else { return nil }
        return converter.wideTransform(for: profile)
    }

    /// Whether a buffer of `pixelCount` 16-bit RGBA pixels (8 bytes each) fits in the memory
    /// ``maxPixelCount`` allows an 8-bit decode (4 bytes a pixel): decoders that must hold a whole
    /// 16-bit image at once ask before allocating it, and decode to 8 bits first when it does not.
    package func allowsWideBuffer(pixelCount: Int) -> Bool {
        pixelCount >= 0 && pixelCount <= maxPixelCount / 2
    }
}

extension PixelBuffer {
    /// An 8-bit straight-alpha buffer made band by band from 16-bit samples: `readBand` fills
    /// `rows` rows (of `width` RGBA 16-bit pixels, packed) starting at `firstRow`, in order, and
    /// `transform` converts each band into the result, so the 16-bit samples held at once are one
    /// band of `bandRows` rows, not the image.
    ///
    /// The size must have passed the decoder's pixel limit.
    package init(
        width: Int, height: Int, bandRows: Int, transform: any WideColorTransform,
        readBand: (_ band: UnsafeMutableBufferPointer<UInt16>, _ firstRow: Int, _ rows: Int) throws -> Void
    ) throws {
        let bandRows = max(1, min(bandRows, height))
        let band = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: width * 4 * bandRows)
        defer { band.deallocate() }
        try self.init(width: width, height: height, alphaMode: .straight) { out in
            guard let source = band.baseAddress, let destination = out.baseAddress else { return }
            var row = 0
            while row < height {
                let rows = min(bandRows, height - row)
                try readBand(band, row, rows)
                transform.convert(
                    source, sourceRowBytes: width * 8, into: destination + row * width * 4, destinationRowBytes: width * 4,
                    width: width, rows: rows)
                row += rows
            }
        }
    }
}
