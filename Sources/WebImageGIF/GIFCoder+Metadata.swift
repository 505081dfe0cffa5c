public import Foundation
public import WebImage

extension GIFCoder: ImageMetadataReading {
    /// The XMP packet of a GIF's `XMP Data` application extension (the first one; read from the
    /// block structure, nothing is decoded). GIF has no EXIF or IPTC carrier.
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        guard canDecode(data) else { return nil }
        let xmp = data.withUnsafeBytes { bytes in
            (try? GIFContainer(parsing: bytes)).flatMap { $0.applicationExtensions.xmp(in: bytes) }
        }
        let metadata = ImageMetadata(xmp: xmp)
        return metadata.isEmpty ? nil : metadata
    }
}
