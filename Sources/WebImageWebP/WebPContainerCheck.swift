import WebImage

/// Checks that a WebP file's RIFF container holds every chunk up to and including the image data,
/// before any pixel memory is allocated.
///
/// `WebPGetFeatures` reads the header from a prefix of the file, so a few dozen bytes can declare
/// a 16383×16383 image; these are the completeness rules `WebPDecode` applies itself, only later,
/// after the caller has allocated the output.
enum WebPContainerCheck {
    /// Throws `badImageData` when the RIFF size, or a chunk before the image chunk, or the image
    /// chunk (`VP8 `/`VP8L`) reaches beyond the data.
    static func checkComplete(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count >= 20, tag(bytes, at: 0) == "RIFF", tag(bytes, at: 8) == "WEBP" else {
            throw WebImageError.badData("WebP data has no RIFF/WEBP header")
        }
        let riffSize = uint32(bytes, at: 4)
        guard riffSize <= bytes.count - 8 else {
            throw WebImageError.badData(
                "WebP data is truncated: the RIFF container declares \(riffSize + 8) bytes, \(bytes.count) are present")
        }
        let end = riffSize + 8
        var offset = 12
        while offset + 8 <= end {
            let name = tag(bytes, at: offset)
            let size = uint32(bytes, at: offset + 4)
            guard size <= end - offset - 8 else {
                throw WebImageError.badData(
                    "WebP data is truncated: chunk \(name) declares \(size) bytes, \(end - offset - 8) are present")
            }
            if name == "VP8 " || name == "VP8L" { return }
            offset += 8 + size + (size & 1)
        }
        // No image chunk: animations keep their frames in ANMF chunks, which the demuxer checks.
    }

    static func tag(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }
}
