import WebImageServer

extension MetadataInfo {
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
