import WebImage

extension PNGChunk {
    static let eXIf = type("eXIf")
}

/// The EXIF orientation of a PNG's `eXIf` chunk (PNG 1.5 extension, 2017): a TIFF structure
/// whose tag 274 says how to display the stored pixels. Exposed on ``Image/orientation``, never
/// applied to the pixels, as for JPEG.
enum PNGExifOrientation {
    /// The orientation of the first `eXIf` chunk in `bytes` (before or after the image data),
    /// `.up` when there is none or it is malformed. `chunks` are `bytes`' (``PNGChunkReader/chunks()``).
    static func orientation(in bytes: UnsafeRawBufferPointer, chunks: [PNGChunk]) -> ImageOrientation {
        guard let chunk = chunks.first(where: { $0.type == PNGChunk.eXIf }) else { return .up }
        return ExifOrientationReader.orientation(inTIFF: [UInt8](bytes[chunk.dataRange])) ?? .up
    }
}
