public import Foundation
public import WebImage

extension HEIFCoder: ImageMetadataReading {
    /// The Exif and XMP items of a HEIC/HEIF's primary image (read from the container; nothing is
    /// decoded). Item references are checked first, as for every HEIF read.
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        guard canDecode(data) else { return nil }
        return data.withUnsafeBytes { try? HEIFContext(bytes: $0).primaryImage().metadata }
    }
}
