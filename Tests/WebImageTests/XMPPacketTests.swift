import Foundation
import Testing
import WebImage
import WebImageTesting

@Suite("XMP packet: read, edit")
struct XMPPacketTests {
    private func text(_ bytes: [UInt8]?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    @Test("tiff:Orientation is read from an element or an attribute")
    func orientation() throws {
        #expect(XMPPacket.orientation(in: [UInt8](MetadataFixtures.xmp(orientation: 6))) == .right)
        let attribute = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:t="http://ns.adobe.com/tiff/1.0/" t:Orientation="8"/></rdf:RDF></x:xmpmeta>
            """
        #expect(XMPPacket.orientation(in: Array(attribute.utf8)) == .left)
        // Another namespace's Orientation is not the TIFF one.
        let other = attribute.replacingOccurrences(of: "tiff/1.0/", with: "other/")
        #expect(XMPPacket.orientation(in: Array(other.utf8)) == nil)
    }

    @Test("keep drops exif:GPS… (attribute and element) and rewrites orientation and dimensions")
    func keep() throws {
        let packet = try XMPPacket(parsing: [UInt8](MetadataFixtures.xmp()))
        let edited = text(packet.edited(policy: .keep, orientation: .up, pixelSize: PixelSize(width: 32, height: 64)))
        #expect(!edited.contains("GPS"))
        #expect(edited.contains("<tiff:Orientation>1</tiff:Orientation>"))
        #expect(edited.contains("<exif:PixelXDimension>32</exif:PixelXDimension>"))
        #expect(edited.contains("<exif:PixelYDimension>64</exif:PixelYDimension>"))
        #expect(edited.contains(MetadataFixtures.copyright))
        #expect(edited.contains("xmp:CreatorTool"))
        #expect(XMPPacket.orientation(in: Array(edited.utf8)) == .up)
        let all = text(packet.edited(policy: .keepAll, orientation: nil, pixelSize: nil))
        #expect(all.contains("exif:GPSLatitude=") && all.contains("<exif:GPSLongitude>"))
    }

    @Test("copyright keeps only dc:rights and dc:creator here")
    func copyright() throws {
        let packet = try XMPPacket(parsing: [UInt8](MetadataFixtures.xmp()))
        let edited = text(packet.edited(policy: .copyright, orientation: .up, pixelSize: nil))
        #expect(edited.contains(MetadataFixtures.copyright) && edited.contains(MetadataFixtures.artist))
        for gone in ["GPS", "Orientation", "PixelXDimension", "CreatorTool"] { #expect(!edited.contains(gone), "\(gone)") }
        #expect(try XMPPacket(parsing: Array(edited.utf8)).edited(policy: .copyright, orientation: nil, pixelSize: nil) != nil)
        #expect(packet.edited(policy: .strip, orientation: nil, pixelSize: nil) == nil)
    }

    @Test("Malformed packets are typed errors", arguments: [
        "", "no markup", "<a>", "<a></b>", "<!DOCTYPE x [<!ENTITY e \"e\">]><a/>", "<a b=c/>", "<a b=\"c/>", "<?pi", "<!-- x",
    ])
    func malformed(packet: String) {
        #expect(throws: WebImageError.self) { try XMPPacket(parsing: Array(packet.utf8)) }
    }

    @Test("Nesting past the limit is refused")
    func deep() {
        let deep = String(repeating: "<a>", count: XMPPacket.maxDepth + 1) + String(repeating: "</a>", count: XMPPacket.maxDepth + 1)
        #expect(throws: WebImageError.self) { try XMPPacket(parsing: Array(deep.utf8)) }
    }
}
