public import Foundation
public import WebImage

extension JPEGCoder: ImageMetadataReading {
    /// The EXIF (APP1), XMP (APP1) and IPTC (APP13) of a JPEG, read before its first scan.
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        data.withUnsafeBytes { JPEGMetadata.read($0) }
    }
}
