import CTIFFShim
import Foundation
import WebImage

/// Writes pages of RGBA as a TIFF file in memory (the C shim drives libtiff).
enum TIFFEncoder {
    /// The deflate level when ``ImageEncodingOptions/compressionLevel`` is unset.
    static let defaultCompressionLevel = 6

    /// A TIFF of `pageCount` pages; `page(i)` gives page i's pixels (either alpha mode), each
    /// page tagged with `profile` when there is one.
    static func encode(
        pageCount: Int, options: ImageEncodingOptions, profile: ColorProfile? = nil, page: (Int) throws -> PixelBuffer
    ) throws -> Data {
        let icc = profile.map { [UInt8]($0.data) }
        guard let writer = webimage_tiff_writer_new() else {
            throw WebImageError(.encodingFailed, "libtiff cannot open a file for writing")
        }
        defer { webimage_tiff_writer_free(writer) }
        let level = Int32(min(9, max(1, options.compressionLevel ?? defaultCompressionLevel)))
        for index in 0..<pageCount {
            let pixels = try page(index).unpremultiplied()
            guard pixels.width > 0, pixels.height > 0, pixels.width <= Int(UInt32.max), pixels.height <= Int(UInt32.max)
            else {
                throw WebImageError(.encodingFailed, "TIFF cannot store a \(pixels.size) page")
            }
            let status = pixels.bytes.withUnsafeBufferPointer { rgba in
                webimage_tiff_writer_add_page(
                    writer, rgba.baseAddress, UInt32(pixels.width), UInt32(pixels.height), pixels.isOpaque ? 0 : 1,
                    level, Int32(clamping: index), Int32(clamping: pageCount), icc, UInt32(icc?.count ?? 0))
            }
            guard status == 0 else { throw failure(writer, "writing page \(index)") }
        }
        var bytes: UnsafePointer<UInt8>?
        var size = 0
        guard webimage_tiff_writer_finish(writer, &bytes, &size) == 0, let bytes else {
            throw failure(writer, "finishing the file")
        }
        return Data(bytes: bytes, count: size)
    }

    private static func failure(_ writer: OpaquePointer, _ stage: String) -> WebImageError {
        WebImageError(.encodingFailed, "libtiff failed \(stage): \(String(cString: webimage_tiff_writer_message(writer)))")
    }
}
