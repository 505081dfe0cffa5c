import WebImage

extension PNGChunk {
    static let eXIf = type("eXIf")
}

/// The orientation of a PNG: its `eXIf` chunk's (PNG 1.5 extension, 2017: a TIFF structure whose
/// tag 274 says how to display the stored pixels), else its XMP's `tiff:Orientation`. Exposed on
/// ``Image/orientation``, never applied to the pixels, as for JPEG.
enum PNGExifOrientation {
    /// The orientation of the first `eXIf` chunk in `bytes` (before or after the image data), else
    /// of the XMP `iTXt` chunk; `.up` when neither states one. `chunks` are `bytes`'
    /// (``PNGChunkReader/chunks()``).
    static func orientation(in bytes: UnsafeRawBufferPointer, chunks: [PNGChunk]) -> ImageOrientation {
        if let chunk = chunks.first(where: { $0.type == PNGChunk.eXIf }),
            let orientation = ExifOrientationReader.orientation(inTIFF: [UInt8](bytes[chunk.dataRange]))
        {
            return orientation
        }
        return PNGMetadata.xmp(in: bytes, chunks: chunks).flatMap { XMPPacket.orientation(in: [UInt8]($0)) } ?? .up
    }
}
