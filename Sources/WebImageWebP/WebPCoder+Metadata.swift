public import Foundation
public import WebImage

extension WebPCoder: ImageMetadataReading {
    /// The EXIF (`EXIF` chunk) and XMP (`XMP ` chunk) of an extended WebP.
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        data.withUnsafeBytes { WebPMetadataChunks.metadata(in: $0) }
    }
}
