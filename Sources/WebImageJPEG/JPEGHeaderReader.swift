public import Foundation
public import WebImage

extension JPEGCoder: ImageHeaderReading {
    /// Reads a JPEG's header with libjpeg (`jpeg_read_header`: the markers up to the first scan),
    /// without decompressing: the stored size, the EXIF orientation and the ICC profile. JPEGs have
    /// no alpha.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not JPEG data (no SOI marker)") }
        return try data.withUnsafeBytes { bytes in
            // The probe reports the declared size whatever it is: no memory bound is needed.
            let decompression = try JPEGDecompression(maxPixelCount: 0)
            let header = try decompression.readHeader(bytes)
            return ImageHeader(
                format: .jpeg, pixelSize: header.size, hasAlpha: false, orientation: header.orientation,
                colorProfile: header.reportedProfile)
        }
    }
}
