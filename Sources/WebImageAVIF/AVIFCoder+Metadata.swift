public import Foundation
public import WebImage

extension AVIFCoder: ImageMetadataReading {
    /// The Exif and XMP items of an AVIF (libavif reads them with the container; no AV1 data is
    /// decoded).
    public func readMetadata(_ data: Data) -> ImageMetadata? {
        guard canDecode(data) else { return nil }
        return data.withUnsafeBytes { try? AVIFDecoderSession(bytes: $0, readsDurations: false, readsMetadata: true).info.metadata }
    }
}
