public import Foundation
public import WebImage

extension TIFFCoder: ImageMetadataReading {
    /// The metadata of a TIFF's first page: its descriptive tags with the Exif and GPS
    /// directories as EXIF, the XMP tag (700) and the IPTC tag (33723) (``TIFFFileMetadata``).
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        guard canDecode(data) else { return nil }
        return TIFFFileMetadata.read([UInt8](data))
    }
}
