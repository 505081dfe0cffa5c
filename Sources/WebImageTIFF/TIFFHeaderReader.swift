public import Foundation
public import WebImage

extension TIFFCoder: ImageHeaderReading {
    /// Reads a TIFF's first directory and counts its pages (following the directory chain without
    /// reading the directories), decoding no pixels. Several pages report 0.1 s each and loop
    /// forever, as a decode does.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard canDecode(data) else { throw WebImageError.badData("not TIFF data (no II*/MM* header)") }
        let file = try data.withUnsafeBytes {
            try TIFFFile($0, maxPixelCount: ImageDecodingOptions.defaultMaxPixelCount)
        }
        let first = try file.pageInfo(0)
        guard first.size.width > 0, first.size.height > 0 else {
            throw WebImageError.badData("TIFF page 0 has the empty size \(first.size)")
        }
        let pages = file.pageCount(limit: 1 << 16)
        return ImageHeader(
            format: .tiff, pixelSize: first.size, frameCount: pages, loopCount: pages > 1 ? 0 : nil,
            frameDurations: pages > 1 ? Array(repeating: TIFFPageCursor.pageDuration, count: pages) : nil,
            hasAlpha: first.hasAlpha, orientation: first.orientation, colorProfile: first.reportedProfile)
    }
}
