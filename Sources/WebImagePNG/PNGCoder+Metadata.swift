public import Foundation
public import WebImage

extension PNGCoder: ImageMetadataReading {
    /// The EXIF (`eXIf`) and XMP (`iTXt` `XML:com.adobe.xmp`) of a PNG or APNG.
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        guard canDecode(data) else { return nil }
        return data.withUnsafeBytes { PNGMetadata.read($0, chunks: PNGChunkReader(bytes: $0).chunks()) }
    }
}
