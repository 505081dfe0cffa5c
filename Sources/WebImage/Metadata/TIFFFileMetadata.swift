import Foundation

/// The metadata of a whole TIFF file's first page, read from and added to its IFD0: the
/// descriptive tags (Artist, Copyright, Make, Model, ImageDescription, DateTime, Software,
/// HostComputer, DocumentName) with the Exif and GPS directories as EXIF, tag 700 as XMP and tag
/// 33723 as IPTC. Orientation and resolution are the image's own (libtiff reads and writes
/// them), not part of its EXIF.
///
/// Adding never moves the image data: the file is kept as it is, a new IFD0 (the old one's
/// entries and the metadata) with its directories is appended, and the header points at it; the
/// old IFD0 is left unused. Reads are bounded as ``ExifStructure``'s are.
///
/// ```swift
/// let metadata = TIFFFileMetadata.read(tiffBytes)
/// let tagged = try TIFFFileMetadata.embedding(metadata!, in: tiffBytes)
/// ```
public enum TIFFFileMetadata {
    /// IFD0 tags that describe the image rather than lay it out: what EXIF keeps of a TIFF file.
    static let descriptiveTags: Set<UInt16> = [
        0x010D, 0x010E, 0x010F, 0x0110, 0x0131, 0x0132, ExifStructure.Tag.artist, 0x013C, ExifStructure.Tag.copyright,
    ]
    static let xmpTag: UInt16 = 700
    static let iptcTag: UInt16 = 33723

    /// The metadata of the TIFF file in `bytes`; nil when it has none or its IFD0 is unreadable.
    public static func read(_ bytes: [UInt8]) -> ImageMetadata? {
        guard let (reader, ifd0) = try? firstDirectory(bytes) else { return nil }
        func pointed(_ tag: UInt16) -> [ExifStructure.Entry]? {
            ifd0.first { $0.tag == tag }.flatMap(reader.pointer).flatMap { try? reader.directory(at: $0) }
        }
        var exif = pointed(ExifStructure.Tag.exifPointer)
        let interoperability = exif?.first { $0.tag == ExifStructure.Tag.interoperabilityPointer }.flatMap(reader.pointer)
            .flatMap { try? reader.directory(at: $0) }
        exif?.removeAll { $0.tag == ExifStructure.Tag.interoperabilityPointer || ExifStructure.unmovable.contains($0.tag) }
        let structure = ExifStructure(
            bigEndian: reader.bigEndian, ifd0: ifd0.filter { descriptiveTags.contains($0.tag) }, exif: exif,
            gps: pointed(ExifStructure.Tag.gpsPointer), interoperability: interoperability)
        let metadata = ImageMetadata(
            exif: structure.isEmpty ? nil : Data(structure.serialized()),
            xmp: ifd0.first { $0.tag == xmpTag }.map { Data($0.value) },
            iptc: ifd0.first { $0.tag == iptcTag }.map { Data($0.value) })
        return metadata.isEmpty ? nil : metadata
    }

    /// `tiff` (a whole TIFF file) with `metadata` added to its first page: EXIF's IFD0 tags the
    /// page does not state already, its Exif and GPS directories, XMP and IPTC. Throws
    /// ``WebImageError/Code/encodingFailed`` when `tiff`'s IFD0 cannot be read or the result
    /// would pass 4 GB.
    public static func embedding(_ metadata: ImageMetadata, in tiff: [UInt8]) throws -> [UInt8] {
        let (reader, ifd0) = try firstDirectory(tiff)
        // Our encoder writes no Exif or GPS pointer; new ones come with the metadata.
        var entries = ifd0.filter { $0.tag != ExifStructure.Tag.exifPointer && $0.tag != ExifStructure.Tag.gpsPointer }
        var present = Set(ifd0.map(\.tag))
        var exif: ExifStructure?
        if let data = metadata.exif, var parsed = try? ExifStructure(parsing: [UInt8](data)) {
            parsed.convert(toBigEndian: reader.bigEndian)
            for entry in parsed.ifd0 where !present.contains(entry.tag) {
                entries.append(entry)
                present.insert(entry.tag)
            }
            exif = parsed
        }
        if let xmp = metadata.xmp, !present.contains(xmpTag) {
            entries.append(ExifStructure.Entry(tag: xmpTag, type: 1, count: UInt32(xmp.count), value: [UInt8](xmp)))
        }
        if let iptc = metadata.iptc, !present.contains(iptcTag) {
            entries.append(ExifStructure.Entry(tag: iptcTag, type: 7, count: UInt32(iptc.count), value: [UInt8](iptc)))
        }
        let next = reader.uint32(at: try ifd0Offset(tiff, reader) + 2 + ifd0.count * 12) ?? 0
        let base = (tiff.count + 1) & ~1
        let structure = ExifStructure(
            bigEndian: reader.bigEndian, ifd0: entries, exif: exif?.exif, gps: exif?.gps,
            interoperability: exif?.exif == nil ? nil : exif?.interoperability)
        let appended = structure.serialized(base: base, nextIFD: next)
        guard base + appended.count <= Int(UInt32.max) else {
            throw WebImageError(.encodingFailed, "TIFF: adding metadata would pass 4 GB")
        }
        var out = tiff
        if out.count < base { out.append(0) }
        out += appended
        // The header points at the new IFD0, 8 bytes into the appended structure.
        let header = structure.encode32(UInt32(base + 8))
        out.replaceSubrange(4..<8, with: header)
        return out
    }

    private static func ifd0Offset(_ bytes: [UInt8], _ reader: ExifByteReader) throws -> Int {
        guard reader.uint16(at: 2) == 42, let offset = reader.uint32(at: 4) else {
            throw WebImageError.badData("TIFF: no header")
        }
        return Int(offset)
    }

    /// The reader of `bytes` and IFD0's entries, pointers included.
    private static func firstDirectory(_ bytes: [UInt8]) throws -> (ExifByteReader, [ExifStructure.Entry]) {
        guard bytes.count >= 8, bytes[0] == bytes[1], bytes[0] == 0x49 || bytes[0] == 0x4D else {
            throw WebImageError.badData("TIFF: no byte order mark")
        }
        let reader = ExifByteReader(bytes: bytes, bigEndian: bytes[0] == 0x4D)
        return (reader, try reader.directory(at: try ifd0Offset(bytes, reader)))
    }
}
