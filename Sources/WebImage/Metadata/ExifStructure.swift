/// An EXIF TIFF structure read into its directories, so that tags can be removed or changed and
/// the whole written out again with fresh offsets.
///
/// Reading is bounded and checked: every offset and length is compared with the bytes before it
/// is followed, only the fixed pointers (IFD0 → Exif and GPS, Exif → Interoperability) are
/// followed, each once, so no structure can loop, and entries of an unknown type are dropped.
/// What cannot survive a move is left out: IFD1 (the embedded thumbnail, of the pixels before
/// any edit), tags holding offsets into the original file (strip and tile offsets, sub-IFDs,
/// the maker note) and blocks other parts of the file carry better (embedded XMP, IPTC,
/// Photoshop resources, ICC profile). Values keep the byte order they were stored in.
///
/// ```swift
/// var exif = try ExifStructure(parsing: bytes)
/// exif.gps = nil                              // no position
/// exif.setOrientation(.up)
/// let written = exif.serialized()
/// ```
public struct ExifStructure: Sendable, Hashable {
    /// One directory entry: its tag, field type, value count and value bytes (in the
    /// structure's byte order).
    public struct Entry: Sendable, Hashable {
        /// The tag number (274 = Orientation, 33432 = Copyright, …).
        public var tag: UInt16
        /// The TIFF field type (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, …).
        public var type: UInt16
        /// How many values of `type` the entry holds.
        public var count: UInt32
        /// The values' bytes, `count` × the type's size.
        public var value: [UInt8]

        /// An entry of these parts.
        public init(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]) {
            self.tag = tag
            self.type = type
            self.count = count
            self.value = value
        }
    }

    /// Whether values are big-endian (`MM`) rather than little-endian (`II`).
    public var bigEndian: Bool
    /// IFD0's entries, without the Exif and GPS pointers.
    public var ifd0: [Entry]
    /// The Exif directory's entries (without the Interoperability pointer), or nil.
    public var exif: [Entry]?
    /// The GPS directory's entries, or nil.
    public var gps: [Entry]?
    /// The Interoperability directory's entries, or nil.
    public var interoperability: [Entry]?

    /// The largest structure read.
    public static let maxByteCount = ImageMetadata.maxByteCount
    /// The most entries read from one directory (real files have a few dozen).
    public static let maxEntryCount = 1_000

    /// Tag numbers with a meaning here.
    public enum Tag {
        /// IFD0: how to display the stored pixels (SHORT 1–8).
        public static let orientation: UInt16 = 0x0112
        /// IFD0: the artist or photographer (ASCII).
        public static let artist: UInt16 = 0x013B
        /// IFD0: the copyright notice (ASCII).
        public static let copyright: UInt16 = 0x8298
        /// IFD0: the offset of the Exif directory.
        public static let exifPointer: UInt16 = 0x8769
        /// IFD0: the offset of the GPS directory.
        public static let gpsPointer: UInt16 = 0x8825
        /// Exif: the offset of the Interoperability directory.
        public static let interoperabilityPointer: UInt16 = 0xA005
        /// Exif: the width of the compressed image.
        public static let pixelXDimension: UInt16 = 0xA002
        /// Exif: the height of the compressed image.
        public static let pixelYDimension: UInt16 = 0xA003
        /// IFD0: the image's width and height (TIFF files; rare in EXIF).
        public static let imageWidth: UInt16 = 0x0100
        /// IFD0: the image's height.
        public static let imageLength: UInt16 = 0x0101
        /// Exif: the maker's private data, full of offsets into the original file.
        public static let makerNote: UInt16 = 0x927C
    }

    /// Tags dropped whatever the policy: offsets into the original file and blocks that other
    /// parts of the file carry.
    static let unmovable: Set<UInt16> = [
        0x0111, 0x0117, 0x0144, 0x0145, 0x014A, 0x0201, 0x0202,  // strips, tiles, sub-IFDs, thumbnail
        Tag.makerNote, 0x02BC, 0x83BB, 0x8649, 0x8773,  // maker note, XMP, IPTC, Photoshop, ICC
    ]

    /// A structure of these directories.
    public init(
        bigEndian: Bool, ifd0: [Entry], exif: [Entry]? = nil, gps: [Entry]? = nil, interoperability: [Entry]? = nil
    ) {
        self.bigEndian = bigEndian
        self.ifd0 = ifd0
        self.exif = exif
        self.gps = gps
        self.interoperability = interoperability
    }

    /// Whether no directory holds an entry.
    public var isEmpty: Bool {
        ifd0.isEmpty && (exif ?? []).isEmpty && (gps ?? []).isEmpty && (interoperability ?? []).isEmpty
    }

    /// The bytes of one value of each TIFF type; nil for unknown types.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}

extension ExifStructure {
    /// The structure in `bytes` (optionally after `Exif\0\0`). Throws
    /// ``WebImageError/Code/badImageData`` when the header, IFD0 or a followed directory is out of
    /// bounds or malformed; entries whose values are out of bounds are dropped.
    public init(parsing input: [UInt8]) throws {
        let bytes = input.starts(with: Array("Exif\0\0".utf8)) ? Array(input.dropFirst(6)) : input
        guard bytes.count >= 8, bytes.count <= Self.maxByteCount else {
            throw WebImageError.badData("EXIF: \(bytes.count) bytes is no TIFF structure")
        }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw WebImageError.badData("EXIF: no TIFF byte order mark")
        }
        let reader = ExifByteReader(bytes: bytes, bigEndian: bigEndian)
        guard reader.uint16(at: 2) == 42, let first = reader.uint32(at: 4) else {
            throw WebImageError.badData("EXIF: no TIFF header")
        }
        var ifd0 = try reader.directory(at: Int(first))
        let exifOffset = ifd0.first { $0.tag == Tag.exifPointer }.flatMap(reader.pointer)
        let gpsOffset = ifd0.first { $0.tag == Tag.gpsPointer }.flatMap(reader.pointer)
        ifd0.removeAll { $0.tag == Tag.exifPointer || $0.tag == Tag.gpsPointer || Self.unmovable.contains($0.tag) }
        var exif = try exifOffset.map { try reader.directory(at: $0) }
        let interoperabilityOffset = exif?.first { $0.tag == Tag.interoperabilityPointer }.flatMap(reader.pointer)
        exif?.removeAll { $0.tag == Tag.interoperabilityPointer || Self.unmovable.contains($0.tag) }
        self.init(
            bigEndian: bigEndian, ifd0: ifd0, exif: exif, gps: try gpsOffset.map { try reader.directory(at: $0) },
            interoperability: try interoperabilityOffset.map { try reader.directory(at: $0) })
        // Entries may share their value bytes; written out, each gets its own copy.
        let valueBytes = [ifd0, self.exif ?? [], gps ?? [], interoperability ?? []].joined().reduce(0) { $0 + $1.value.count }
        guard valueBytes <= Self.maxByteCount / 2 else { throw WebImageError.badData("EXIF: \(valueBytes) bytes of values") }
    }
}

/// Bounds-checked reads of a TIFF structure in one byte order.
struct ExifByteReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }

    /// The directory at `offset`: its entries with their values copied, in file order. Entries
    /// of unknown types or with values out of bounds are left out.
    func directory(at offset: Int) throws -> [ExifStructure.Entry] {
        guard let count = uint16(at: offset), Int(count) <= ExifStructure.maxEntryCount,
            offset + 2 + Int(count) * 12 <= bytes.count
        else { throw WebImageError.badData("EXIF: directory at \(offset) out of bounds") }
        var entries: [ExifStructure.Entry] = []
        for index in 0..<Int(count) {
            let at = offset + 2 + index * 12
            guard let tag = uint16(at: at), let type = uint16(at: at + 2), let valueCount = uint32(at: at + 4),
                let size = ExifStructure.typeSize(type)
            else { continue }
            let (length, overflow) = Int(valueCount).multipliedReportingOverflow(by: size)
            guard !overflow, length <= bytes.count else { continue }
            var start = at + 8
            if length > 4 {
                guard let pointed = uint32(at: at + 8) else { continue }
                start = Int(pointed)
            }
            guard start <= bytes.count - length else { continue }
            entries.append(ExifStructure.Entry(tag: tag, type: type, count: valueCount, value: Array(bytes[start..<start + length])))
        }
        return entries
    }

    /// The offset a pointer entry (one LONG or IFD) holds.
    func pointer(_ entry: ExifStructure.Entry) -> Int? {
        guard entry.count == 1, entry.type == 4 || entry.type == 13, entry.value.count == 4 else { return nil }
        return ExifByteReader(bytes: entry.value, bigEndian: bigEndian).uint32(at: 0).map(Int.init)
    }
}
