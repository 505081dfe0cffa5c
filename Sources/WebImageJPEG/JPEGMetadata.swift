import Foundation
import WebImage

/// The metadata segments of a JPEG: APP1 `Exif\0\0` (EXIF), APP1 `http://ns.adobe.com/xap/1.0/\0`
/// (XMP) and APP13 `Photoshop 3.0\0` (IPTC, in the Photoshop image resource 0x0404).
///
/// Read by walking the markers before the first scan, bounded by the bytes (each step moves on by
/// at least a marker); the first segment of each kind counts. Extended XMP (the continuation
/// segments of packets over 64 KB) and other Photoshop resources are not read.
enum JPEGMetadata {
    static let exifSignature = Array("Exif\0\0".utf8)
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let photoshopSignature = Array("Photoshop 3.0\0".utf8)

    /// The metadata of the JPEG in `bytes`, nil when it has none.
    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        var exif: Data?
        var xmp: Data?
        var iptc: Data?
        walkSegments(bytes) { marker, payload in
            if marker == 0xE1, exif == nil, payload.starts(with: exifSignature) {
                exif = Data(payload.dropFirst(exifSignature.count))
            } else if marker == 0xE1, xmp == nil, payload.starts(with: xmpSignature) {
                xmp = Data(payload.dropFirst(xmpSignature.count))
            } else if marker == 0xED, iptc == nil, payload.starts(with: photoshopSignature) {
                iptc = PhotoshopResources.iptc(in: payload.dropFirst(photoshopSignature.count))
            }
        }
        let metadata = ImageMetadata(exif: exif, xmp: xmp, iptc: iptc)
        return metadata.isEmpty ? nil : metadata
    }

    /// The `tiff:Orientation` of the XMP segment in `bytes`, nil when there is none.
    static func xmpOrientation(_ bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var orientation: ImageOrientation?
        walkSegments(bytes) { marker, payload in
            if orientation == nil, marker == 0xE1, payload.starts(with: xmpSignature) {
                orientation = XMPPacket.orientation(in: Array(payload.dropFirst(xmpSignature.count)))
            }
        }
        return orientation
    }

    /// Calls `body` with each marker segment's marker and payload before the first scan.
    private static func walkSegments(_ bytes: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer.SubSequence) -> Void) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return }
            let marker = bytes[i + 1]
            if marker == 0xFF {
                i += 1  // fill byte
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return }  // the first scan, or the end
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return }
            body(marker, bytes[(i + 4)..<(i + 2 + length)])
            i += 2 + length
        }
    }

    /// `jpeg` with `metadata`'s blocks in segments after SOI and a leading JFIF APP0: APP1 EXIF,
    /// APP1 XMP, APP13 IPTC. A block too large for one segment (64 KB) is left out.
    static func embedding(_ metadata: ImageMetadata, in jpeg: Data) -> Data {
        var segments: [UInt8] = []
        func append(_ marker: UInt8, _ payload: [UInt8]) {
            let length = payload.count + 2
            guard length <= 0xFFFF else { return }
            segments += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        if let exif = metadata.exif { append(0xE1, exifSignature + exif) }
        if let xmp = metadata.xmp { append(0xE1, xmpSignature + xmp) }
        if let iptc = metadata.iptc { append(0xED, photoshopSignature + PhotoshopResources.wrapping(iptc: [UInt8](iptc))) }
        guard !segments.isEmpty, jpeg.count > 4 else { return jpeg }
        var insertAt = 2
        let start = jpeg.startIndex
        if jpeg[start + 2] == 0xFF, jpeg[start + 3] == 0xE0, jpeg.count > 6 {
            insertAt = 4 + (Int(jpeg[start + 4]) << 8 | Int(jpeg[start + 5]))
        }
        guard insertAt <= jpeg.count else { return jpeg }
        var out = Data(jpeg.prefix(insertAt))
        out.append(contentsOf: segments)
        out.append(jpeg.dropFirst(insertAt))
        return out
    }
}

/// Photoshop image resource blocks (`8BIM`, a resource ID, a padded Pascal name, a size, the
/// data padded to even), as APP13 carries them; resource 0x0404 holds IPTC-IIM records.
enum PhotoshopResources {
    /// The IPTC records of resource 0x0404 in `blocks`, nil when there is none.
    static func iptc(in blocks: UnsafeRawBufferPointer.SubSequence) -> Data? {
        let bytes = [UInt8](blocks)
        var i = 0
        while i + 12 <= bytes.count, bytes[i..<(i + 4)].elementsEqual(Array("8BIM".utf8)) {
            let id = Int(bytes[i + 4]) << 8 | Int(bytes[i + 5])
            let nameLength = Int(bytes[i + 6])
            let sizeAt = i + 6 + ((nameLength + 2) & ~1)
            guard sizeAt + 4 <= bytes.count else { return nil }
            let size = bytes[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let dataAt = sizeAt + 4
            guard size <= bytes.count - dataAt else { return nil }
            if id == 0x0404 { return Data(bytes[dataAt..<(dataAt + size)]) }
            i = dataAt + ((size + 1) & ~1)
        }
        return nil
    }

    /// `iptc` as one resource 0x0404 with an empty name.
    static func wrapping(iptc: [UInt8]) -> [UInt8] {
        let size = UInt32(iptc.count)
        var block = Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
        block += [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
        block += iptc
        if iptc.count & 1 == 1 { block.append(0) }
        return block
    }
}
