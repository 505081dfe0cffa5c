import Foundation

/// An XMP packet read far enough to find, change and remove its properties, written back byte for
/// byte elsewhere.
///
/// A small XML reader of our own: elements, attributes, namespaces in scope, comments, processing
/// instructions and CDATA, in one bounded pass (nesting up to ``maxDepth``; no DTD, so no entity
/// is ever expanded). Properties are the attributes and child elements of the top-level
/// `rdf:Description` elements, named by namespace URI and local name whatever their prefix.
/// Anything it cannot read (UTF-16, a DOCTYPE, unbalanced tags) is a typed error, and the packet
/// is then not written.
///
/// ```swift
/// let packet = try XMPPacket(parsing: bytes)
/// let orientation = XMPPacket.orientation(in: bytes)          // tiff:Orientation, if stated
/// let safe = packet.edited(policy: .keep, orientation: .up, pixelSize: nil)   // exif:GPS… gone
/// ```
public struct XMPPacket: Sendable {
    /// A property of a top-level `rdf:Description`: an attribute or a child element.
    struct Property {
        /// The namespace URI its prefix is bound to ("" when unbound).
        var namespace: String
        /// Its local name (`Orientation` for `tiff:Orientation`).
        var name: String
        /// Its bytes (with the whitespace before an attribute).
        var range: Range<Int>
        /// Its simple value's bytes: an attribute's value, or the text of an element holding
        /// nothing else; nil for structured values.
        var valueRange: Range<Int>?
    }

    /// The packet's bytes.
    let bytes: [UInt8]
    /// Every property of every top-level `rdf:Description`, in order.
    let properties: [Property]

    /// The deepest element nesting read.
    public static let maxDepth = 64

    /// Namespace URIs.
    enum Namespace {
        static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        static let exif = "http://ns.adobe.com/exif/1.0/"
        static let tiff = "http://ns.adobe.com/tiff/1.0/"
        static let dc = "http://purl.org/dc/elements/1.1/"
        static let xmpRights = "http://ns.adobe.com/xap/1.0/rights/"
        static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    }

    /// Reads `bytes` (UTF-8). Throws ``WebImageError/Code/badImageData`` when they are not
    /// well-formed enough to edit safely, or over ``ImageMetadata/maxByteCount``.
    public init(parsing bytes: [UInt8]) throws {
        guard bytes.count <= ImageMetadata.maxByteCount else { throw WebImageError.badData("XMP: packet too large") }
        self.bytes = bytes
        self.properties = try XMLScanner(bytes: bytes).properties()
    }

    /// The value of `tiff:Orientation` in `bytes` when it is an orientation (1–8); nil when the
    /// packet is unreadable or does not state one.
    public static func orientation(in bytes: [UInt8]) -> ImageOrientation? {
        guard let packet = try? XMPPacket(parsing: bytes) else { return nil }
        return packet.integer(namespace: Namespace.tiff, name: "Orientation").flatMap(ImageOrientation.init(rawValue:))
    }

    /// The simple value of a property read as an integer.
    func integer(namespace: String, name: String) -> Int? {
        guard let property = properties.first(where: { $0.namespace == namespace && $0.name == name }),
            let range = property.valueRange
        else { return nil }
        let text = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int(text)
    }

    /// Whether the packet states a GPS position (an `exif:GPS…` property), which every policy but
    /// ``MetadataPolicy/keepAll`` removes.
    public var hasGPSPosition: Bool {
        properties.contains { !Self.keeps(.keep, namespace: $0.namespace, name: $0.name) }
    }

    /// Whether the packet has a property `namespace`:`name`.
    func hasProperty(namespace: String, name: String) -> Bool {
        properties.contains { $0.namespace == namespace && $0.name == name }
    }
}

extension XMPPacket {
    /// The packet cut down to `policy` (see ``MetadataPolicy``), with `tiff:Orientation` set to
    /// `orientation` and the dimensions it states set to `pixelSize` where given; nil when no
    /// property is left.
    public func edited(policy: MetadataPolicy, orientation: ImageOrientation?, pixelSize: PixelSize?) -> [UInt8]? {
        var edits: [(range: Range<Int>, replacement: [UInt8])] = []
        var kept = 0
        for property in properties {
            guard Self.keeps(policy, namespace: property.namespace, name: property.name) else {
                edits.append((property.range, []))
                continue
            }
            kept += 1
            guard let valueRange = property.valueRange else { continue }
            if let orientation, property.namespace == Namespace.tiff, property.name == "Orientation" {
                edits.append((valueRange, Array(String(orientation.rawValue).utf8)))
            }
            if let pixelSize, let side = Self.dimension(namespace: property.namespace, name: property.name) {
                edits.append((valueRange, Array(String(side == 0 ? pixelSize.width : pixelSize.height).utf8)))
            }
        }
        guard kept > 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) where edit.range.lowerBound >= position {
            out += bytes[position..<edit.range.lowerBound]
            out += edit.replacement
            position = edit.range.upperBound
        }
        out += bytes[position...]
        return out
    }

    /// Whether `policy` keeps the property `namespace`:`name`.
    static func keeps(_ policy: MetadataPolicy, namespace: String, name: String) -> Bool {
        switch policy {
        case .strip: false
        case .copyright:
            (namespace == Namespace.dc && (name == "rights" || name == "creator")) || namespace == Namespace.xmpRights
                || (namespace == Namespace.photoshop && name == "Credit")
        case .keep: !(namespace == Namespace.exif && name.hasPrefix("GPS"))
        case .keepAll: true
        }
    }

    /// 0 for a property stating the width, 1 for the height, nil for others.
    private static func dimension(namespace: String, name: String) -> Int? {
        switch (namespace, name) {
        case (Namespace.exif, "PixelXDimension"), (Namespace.tiff, "ImageWidth"): 0
        case (Namespace.exif, "PixelYDimension"), (Namespace.tiff, "ImageLength"): 1
        default: nil
        }
    }
}
