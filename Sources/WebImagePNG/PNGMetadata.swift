import CPNGShim
import Foundation
import WebImage

extension PNGChunk {
    static let iTXt = type("iTXt")
}

/// The metadata chunks of a PNG: `eXIf` (EXIF) and the `iTXt` chunk keyed `XML:com.adobe.xmp`
/// (XMP, compressed or not). PNG has no IPTC chunk; ImageMagick's `Raw profile type …` text
/// chunks are not read.
enum PNGMetadata {
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    /// The metadata of the PNG in `bytes`, nil when it has none. `chunks` are `bytes`'.
    static func read(_ bytes: UnsafeRawBufferPointer, chunks: [PNGChunk]) -> ImageMetadata? {
        let exif = chunks.first { $0.type == PNGChunk.eXIf }.map { Data(bytes[$0.dataRange]) }
        let metadata = ImageMetadata(exif: exif, xmp: xmp(in: bytes, chunks: chunks))
        return metadata.isEmpty ? nil : metadata
    }

    /// The XMP packet of the first `iTXt` chunk keyed `XML:com.adobe.xmp`, inflated when
    /// compressed (to at most ``WebImage/ImageMetadata/maxByteCount`` bytes).
    static func xmp(in bytes: UnsafeRawBufferPointer, chunks: [PNGChunk]) -> Data? {
        for chunk in chunks where chunk.type == PNGChunk.iTXt {
            let data = [UInt8](bytes[chunk.dataRange])
            guard data.starts(with: xmpKeyword + [0]), data.count >= xmpKeyword.count + 3 else { continue }
            var i = xmpKeyword.count + 1
            let compressed = data[i] == 1
            guard data[i + 1] == 0 else { return nil }
            i += 2
            // The language tag and the translated keyword, each up to a NUL.
            for _ in 0..<2 {
                guard let nul = data[i...].firstIndex(of: 0) else { return nil }
                i = nul + 1
            }
            let text = Array(data[i...])
            return compressed ? inflate(text) : Data(text)
        }
        return nil
    }

    private static func inflate(_ compressed: [UInt8]) -> Data? {
        for capacity in [256 << 10, ImageMetadata.maxByteCount] {
            var out = [UInt8](repeating: 0, count: capacity)
            let produced = out.withUnsafeMutableBufferPointer { buffer in
                compressed.withUnsafeBufferPointer { webimage_png_inflate($0.baseAddress, compressed.count, buffer.baseAddress, capacity) }
            }
            if produced >= 0 { return Data(out.prefix(produced)) }
            if produced == -1 { return nil }
        }
        return nil
    }

    /// `png` with `metadata` as `eXIf` and an uncompressed XMP `iTXt` right after IHDR.
    static func embedding(_ metadata: ImageMetadata, in png: [UInt8]) -> [UInt8] {
        guard png.count >= 33, metadata.exif != nil || metadata.xmp != nil else { return png }
        var writer = PNGChunkWriter(bytes: Array(png[..<33]))
        if let exif = metadata.exif { writer.append(type: PNGChunk.eXIf, data: [UInt8](exif)) }
        if let xmp = metadata.xmp { writer.append(type: PNGChunk.iTXt, data: xmpKeyword + [0, 0, 0, 0, 0] + [UInt8](xmp)) }
        return writer.bytes + png[33...]
    }
}
