public import Foundation

/// Something that reads the EXIF, XMP and IPTC metadata of encoded bytes without decoding pixels.
///
/// Coders adopt it next to ``ImageDecoding``; ``ImageCodersManager`` asks the coder that decoded
/// the bytes when ``ImageDecodingOptions/metadataPolicy`` keeps anything, and puts what the
/// policy keeps on ``Image/metadata``; ``ImageCodersManager/readHeader(_:)`` puts all of it on
/// ``ImageHeader/metadata``. Never throws: malformed metadata is no metadata.
///
/// ```swift
/// let metadata = JPEGCoder().readMetadata(data)
/// print(metadata?.exif?.count ?? 0, "bytes of EXIF")
/// ```
public protocol ImageMetadataReading: Sendable {
    /// The metadata in `data`; nil when there is none.
    func readMetadata(_ data: Data) -> ImageMetadata?
}
