import WebImageKit

/// What `info` says of a file's EXIF, XMP and IPTC.
struct MetadataInfo: Encodable {
    var exifBytes: Int?
    var xmpBytes: Int?
    var iptcBytes: Int?
    /// Whether the EXIF or XMP states a GPS position.
    var gps: Bool
    /// EXIF's copyright notice, when it has one.
    var copyright: String?

    init(_ metadata: ImageMetadata) {
        exifBytes = metadata.exif?.count
        xmpBytes = metadata.xmp?.count
        iptcBytes = metadata.iptc?.count
        let exif = metadata.exif.flatMap { try? ExifStructure(parsing: [UInt8]($0)) }
        let xmp = metadata.xmp.flatMap { try? XMPPacket(parsing: [UInt8]($0)) }
        gps = exif?.gps?.isEmpty == false || xmp?.hasGPSPosition == true
        copyright = exif.flatMap { $0.string(ExifStructure.Tag.copyright, in: $0.ifd0) }
    }

    /// `EXIF 268 bytes, XMP 891 bytes, IPTC 62 bytes; GPS position; © (c) 2026 Ansel`.
    var text: String {
        let blocks = [("EXIF", exifBytes), ("XMP", xmpBytes), ("IPTC", iptcBytes)].compactMap { name, bytes in
            bytes.map { "\(name) \($0) bytes" }
        }
        var text = blocks.joined(separator: ", ")
        if gps { text += "; GPS position" }
        if let copyright { text += "; © \(copyright)" }
        return text
    }
}
