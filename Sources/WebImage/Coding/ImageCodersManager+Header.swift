public import Foundation

extension ImageCodersManager: ImageHeaderReading {
    /// Reads the header with the last registered coder that recognises the bytes and reads headers,
    /// without decoding pixels (see ``ImageHeader``).
    ///
    /// Throws `badImageData` for empty or unrecognised bytes and `unsupportedFormat` when no
    /// registered coder reads this format's headers.
    ///
    /// ```swift
    /// let header = try coders.readHeader(data)   // a 10000×10000 WebP costs no pixel memory
    /// ```
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badData("no image data (0 bytes)") }
        var recognised: (any ImageCoding)?
        for coder in coders.reversed() where coder.canDecode(data) {
            guard let reader = coder as? any ImageHeaderReading else {
                recognised = recognised ?? coder
                continue
            }
            var header = try reader.readHeader(data)
            if header.metadata == nil { header.metadata = (coder as? any ImageMetadataReading)?.readMetadata(data) }
            return header
        }
        if let recognised {
            throw WebImageError(.unsupportedFormat, "the \(recognised.name) coder does not read headers")
        }
        let format = ImageFormat.detect(in: data)
        if format == .undefined {
            throw WebImageError.badData("unrecognised image data (\(data.count) bytes, no known signature)")
        }
        throw WebImageError(.unsupportedFormat, "no coder registered reads \(format) headers")
    }
}
