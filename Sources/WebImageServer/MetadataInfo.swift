public import WebImage

/// What `info` and the service's `/info` say of a file's EXIF, XMP and IPTC.
public struct MetadataInfo: Encodable, Sendable {
    /// The EXIF block's size, when there is one.
    public var exifBytes: Int?
    /// The XMP packet's size, when there is one.
    public var xmpBytes: Int?
    /// The IPTC records' size, when there are any.
    public var iptcBytes: Int?
    /// Whether the EXIF or XMP states a GPS position.
    public var gps: Bool
    /// EXIF's copyright notice, when it has one.
    public var copyright: String?

    /// The facts of `metadata`.
    public init(_ metadata: ImageMetadata) {
        exifBytes = metadata.exif?.count
        xmpBytes = metadata.xmp?.count
        iptcBytes = metadata.iptc?.count
        let exif = metadata.exif.flatMap { try? ExifStructure(parsing: [UInt8]($0)) }
        let xmp = metadata.xmp.flatMap { try? XMPPacket(parsing: [UInt8]($0)) }
        gps = exif?.gps?.isEmpty == false || xmp?.hasGPSPosition == true
        copyright = exif.flatMap { $0.string(ExifStructure.Tag.copyright, in: $0.ifd0) }
    }
}
