import Foundation
import WebImage

/// Hand-built little-endian TIFF files: one page, uncompressed, one strip, with the tags a test
/// asks for. For layouts our encoder does not write (16-bit, palettes, bilevel) and for hostile
/// headers.
enum TIFFTestFiles {
    /// One IFD entry: tag, type (3 SHORT, 4 LONG), values.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var values: [UInt32]
    }

    static func short(_ tag: UInt16, _ values: UInt32...) -> Entry { Entry(tag: tag, type: 3, values: values) }
    static func long(_ tag: UInt16, _ values: UInt32...) -> Entry { Entry(tag: tag, type: 4, values: values) }

    /// A file whose one strip holds `pixelData`, with `entries` plus StripOffsets,
    /// StripByteCounts and RowsPerStrip (= height) added.
    static func file(width: UInt32, height: UInt32, entries: [Entry], pixelData: [UInt8]) -> Data {
        var all = entries + [
            long(256, width), long(257, height), long(278, height),
            long(279, UInt32(pixelData.count)),
        ]
        let dataOffset: UInt32 = 8
        all.append(long(273, dataOffset))
        all.sort { $0.tag < $1.tag }
        var out: [UInt8] = Array("II".utf8) + le16(42) + le32(0)
        out += pixelData
        if out.count % 2 == 1 { out.append(0) }
        // Values that do not fit in four bytes go after the IFD.
        let ifdOffset = UInt32(out.count)
        out.replaceSubrange(4..<8, with: le32(ifdOffset))
        var extra: [UInt8] = []
        let extraBase = ifdOffset + 2 + UInt32(all.count) * 12 + 4
        var ifd: [UInt8] = le16(UInt16(all.count))
        for entry in all {
            ifd += le16(entry.tag) + le16(entry.type) + le32(UInt32(entry.values.count))
            let encoded = entry.values.flatMap { entry.type == 3 ? le16(UInt16(truncatingIfNeeded: $0)) : le32($0) }
            if encoded.count <= 4 {
                ifd += encoded + [UInt8](repeating: 0, count: 4 - encoded.count)
            } else {
                ifd += le32(extraBase + UInt32(extra.count))
                extra += encoded
            }
        }
        ifd += le32(0)
        return Data(out + ifd + extra)
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// Replaces the value of the first SHORT `tag` entry in a little-endian file's first IFD.
    static func settingShortTag(_ tag: UInt16, to value: UInt16, in data: Data) -> Data {
        var bytes = [UInt8](data)
        let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            if Int(bytes[entry]) | Int(bytes[entry + 1]) << 8 == Int(tag) {
                bytes[entry + 8] = UInt8(value & 0xFF)
                bytes[entry + 9] = UInt8(value >> 8)
                return Data(bytes)
            }
        }
        preconditionFailure("tag \(tag) not found")
    }
}
