public import Foundation
public import WebImage

/// Metadata blocks written byte by byte (not by the library's own writer) for the metadata
/// tests: an EXIF structure with an orientation, artist, copyright, Exif directory and GPS
/// position; an XMP packet with the same; IPTC records with a copyright and a city.
public enum MetadataFixtures {
    /// The copyright every fixture states.
    public static let copyright = "(c) 2026 Ansel Example"
    /// The artist every fixture states.
    public static let artist = "Ansel Example"
    /// The latitude's degrees in every GPS fixture (48° N).
    public static let latitudeDegrees: UInt32 = 48

    /// A TIFF structure: IFD0 with Orientation `orientation`, Artist, Copyright, Make, the Exif
    /// and (with `gps`) GPS pointers; Exif with PixelXDimension/PixelYDimension `pixelSize` and
    /// DateTimeOriginal; GPS with GPSVersionID, GPSLatitudeRef `N` and GPSLatitude 48° 51′ 30″.
    public static func exif(
        orientation: Int = 6, pixelSize: PixelSize = PixelSize(width: 64, height: 32), gps: Bool = true, bigEndian: Bool = false
    ) -> Data {
        var writer = TIFFWriter(bigEndian: bigEndian)
        let ifd0 = 8
        var ifd0Entries: [TIFFWriter.Entry] = [
            .init(tag: 0x010F, type: 2, ascii: "WebImage Camera"),
            .init(tag: 0x0112, type: 3, shorts: [UInt16(orientation)]),
            .init(tag: 0x013B, type: 2, ascii: artist),
            .init(tag: 0x8298, type: 2, ascii: copyright),
            .init(tag: 0x8769, type: 4, longs: [0]),
        ]
        if gps { ifd0Entries.append(.init(tag: 0x8825, type: 4, longs: [0])) }
        let exifEntries: [TIFFWriter.Entry] = [
            .init(tag: 0x9003, type: 2, ascii: "2026:11:28 12:00:00"),
            .init(tag: 0xA002, type: 4, longs: [UInt32(pixelSize.width)]),
            .init(tag: 0xA003, type: 4, longs: [UInt32(pixelSize.height)]),
        ]
        let gpsEntries: [TIFFWriter.Entry] = [
            .init(tag: 0x0000, type: 1, bytes: [2, 3, 0, 0]),
            .init(tag: 0x0001, type: 2, ascii: "N"),
            .init(tag: 0x0002, type: 5, longs: [latitudeDegrees, 1, 51, 1, 30, 1]),
        ]
        let exifOffset = ifd0 + writer.size(of: ifd0Entries)
        let gpsOffset = exifOffset + writer.size(of: exifEntries)
        ifd0Entries[4] = .init(tag: 0x8769, type: 4, longs: [UInt32(exifOffset)])
        if gps { ifd0Entries[5] = .init(tag: 0x8825, type: 4, longs: [UInt32(gpsOffset)]) }
        writer.header()
        writer.directory(ifd0Entries, at: ifd0)
        writer.directory(exifEntries, at: exifOffset)
        if gps { writer.directory(gpsEntries, at: gpsOffset) }
        return Data(writer.bytes)
    }

    /// An XMP packet stating `tiff:Orientation` `orientation`, `exif:PixelXDimension` and
    /// `exif:PixelYDimension`, a GPS position (`exif:GPSLatitude` as an attribute,
    /// `exif:GPSLongitude` as an element), `dc:rights`, `dc:creator` and `xmp:CreatorTool`.
    public static func xmp(orientation: Int = 6, pixelSize: PixelSize = PixelSize(width: 64, height: 32)) -> Data {
        Data(
            """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
                xmlns:exif="http://ns.adobe.com/exif/1.0/"
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                exif:GPSLatitude="48,51.5N"
                xmp:CreatorTool="WebImage Camera">
               <tiff:Orientation>\(orientation)</tiff:Orientation>
               <exif:PixelXDimension>\(pixelSize.width)</exif:PixelXDimension>
               <exif:PixelYDimension>\(pixelSize.height)</exif:PixelYDimension>
               <exif:GPSLongitude>2,17.6E</exif:GPSLongitude>
               <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">\(copyright)</rdf:li></rdf:Alt></dc:rights>
               <dc:creator><rdf:Seq><rdf:li>\(artist)</rdf:li></rdf:Seq></dc:creator>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }

    /// IPTC-IIM records: record version, By-line, City `Paris`, Copyright Notice.
    public static func iptc() -> Data {
        func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] {
            [0x1C, record, number, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        }
        return Data(
            dataset(2, 0, [0, 4]) + dataset(2, 80, Array(artist.utf8)) + dataset(2, 90, Array("Paris".utf8))
                + dataset(2, 116, Array(copyright.utf8)))
    }

    /// `jpeg` (a JPEG starting with SOI) with `exif`, `xmp` and `iptc` segments right after SOI
    /// (APP1 `Exif\0\0`, APP1 XMP, APP13 Photoshop 0x0404).
    public static func jpeg(_ jpeg: Data, exif: Data?, xmp: Data?, iptc: Data?) -> Data {
        var segments: [UInt8] = []
        func segment(_ marker: UInt8, _ payload: [UInt8]) {
            let length = payload.count + 2
            segments += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        if let exif { segment(0xE1, Array("Exif\0\0".utf8) + exif) }
        if let xmp { segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp) }
        if let iptc {
            let size = UInt32(iptc.count)
            var resource = Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
            resource += [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
            resource += iptc
            if iptc.count & 1 == 1 { resource.append(0) }
            segment(0xED, resource)
        }
        return Data(jpeg.prefix(2)) + Data(segments) + Data(jpeg.dropFirst(2))
    }
}

/// Writes TIFF directories by hand for the fixtures.
struct TIFFWriter {
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var values: [UInt8]  // big-endian numbers, swapped when written little-endian

        init(tag: UInt16, type: UInt16, ascii: String) {
            self.init(tag: tag, type: type, count: ascii.utf8.count + 1, raw: Array(ascii.utf8) + [0], unit: 1)
        }
        init(tag: UInt16, type: UInt16, bytes: [UInt8]) { self.init(tag: tag, type: type, count: bytes.count, raw: bytes, unit: 1) }
        init(tag: UInt16, type: UInt16, shorts: [UInt16]) {
            self.init(tag: tag, type: type, count: shorts.count, raw: shorts.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, unit: 2)
        }
        init(tag: UInt16, type: UInt16, longs: [UInt32]) {
            let raw = longs.flatMap { [UInt8($0 >> 24), UInt8(($0 >> 16) & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8($0 & 0xFF)] }
            self.init(tag: tag, type: type, count: type == 5 ? longs.count / 2 : longs.count, raw: raw, unit: 4)
        }
        private init(tag: UInt16, type: UInt16, count: Int, raw: [UInt8], unit: Int) {
            self.tag = tag
            self.type = type
            self.count = count
            self.values = raw
            self.unit = unit
        }
        var unit: Int
    }

    let bigEndian: Bool
    var bytes: [UInt8] = []

    func size(of entries: [Entry]) -> Int {
        2 + entries.count * 12 + 4 + entries.reduce(0) { $0 + ($1.values.count > 4 ? ($1.values.count + 1) & ~1 : 0) }
    }

    mutating func header() {
        bytes = bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]
    }

    private func ordered(_ raw: [UInt8], unit: Int) -> [UInt8] {
        guard !bigEndian, unit > 1 else { return raw }
        return stride(from: 0, to: raw.count, by: unit).flatMap { raw[$0..<min($0 + unit, raw.count)].reversed() }
    }

    mutating func directory(_ entries: [Entry], at offset: Int) {
        precondition(bytes.count == offset)
        var valueOffset = offset + 2 + entries.count * 12 + 4
        var values: [UInt8] = []
        bytes += ordered([UInt8(entries.count >> 8), UInt8(entries.count & 0xFF)], unit: 2)
        for entry in entries {
            bytes += ordered([UInt8(entry.tag >> 8), UInt8(entry.tag & 0xFF)], unit: 2)
            bytes += ordered([UInt8(entry.type >> 8), UInt8(entry.type & 0xFF)], unit: 2)
            let count = UInt32(entry.count)
            bytes += ordered([UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)], unit: 4)
            let value = ordered(entry.values, unit: entry.unit)
            if value.count <= 4 {
                bytes += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                let at = UInt32(valueOffset)
                bytes += ordered([UInt8(at >> 24), UInt8((at >> 16) & 0xFF), UInt8((at >> 8) & 0xFF), UInt8(at & 0xFF)], unit: 4)
                values += value
                if value.count & 1 == 1 { values.append(0) }
                valueOffset += (value.count + 1) & ~1
            }
        }
        bytes += [0, 0, 0, 0]
        bytes += values
    }
}
