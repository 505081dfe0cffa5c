import Foundation
import WebImage

/// The colour profile and XMP application extensions of a GIF: where the block walk met them, and
/// their contents read on demand.
///
/// - ICC profile: identifier `ICCRGBG1`, authentication code `012` (as ImageMagick, Pillow and
///   Photoshop write it), the profile split over ordinary sub-blocks.
/// - XMP: identifier `XMP Data`, authentication code `XMP` (the XMP specification, part 3), the
///   packet's bytes written raw, with no length bytes of their own, followed by a 258-byte "magic
///   trailer" (`01 FF FE … 01 00 00`) that leads a reader that takes the text for sub-blocks to
///   the terminator, wherever in the text it starts.
///
/// Only the first of each is used. A profile or packet over the core's limits
/// (``ColorProfile/maxByteCount``, ``ImageMetadata/maxByteCount``), a profile that is not an RGB
/// ICC profile and a packet without its trailer are ignored: they never fail a decode.
struct GIFApplicationExtensions: Sendable, Equatable {
    /// `ICCRGBG1` and `012`: the 11 bytes of the identifier sub-block.
    static let profileIdentifier = Array("ICCRGBG1012".utf8)
    /// `XMP Data` and `XMP`: the 11 bytes of the identifier sub-block.
    static let xmpIdentifier = Array("XMP DataXMP".utf8)
    /// The XMP magic trailer: 0x01, 0xFF down to 0x00, then the block terminator.
    static let xmpTrailer: [UInt8] = [1] + (0...255).reversed().map { UInt8($0) } + [0]

    /// The first ICC profile extension's data sub-blocks (after the identifier, up to the terminator).
    var profileBlocks: Range<Int>?
    /// The first XMP extension's raw bytes after the identifier, up to the terminator.
    var xmpBytes: Range<Int>?

    /// Notes an application extension whose identifier sub-block starts at `start` (its length
    /// byte) and whose terminator is at `terminator`; the first profile and the first XMP are kept.
    mutating func note(_ identifier: [UInt8], start: Int, terminator: Int) {
        let data = start + 1 + identifier.count..<terminator
        if identifier == Self.profileIdentifier, profileBlocks == nil {
            profileBlocks = data
        } else if identifier == Self.xmpIdentifier, xmpBytes == nil {
            xmpBytes = data
        }
    }

    /// The RGB ICC profile of the file, nil when it has none that can be used.
    func colorProfile(in bytes: UnsafeRawBufferPointer) -> ColorProfile? {
        guard let range = profileBlocks, range.upperBound <= bytes.count else { return nil }
        // Sizes first, so that nothing over the limit is copied.
        var total = 0
        var offset = range.lowerBound
        while offset < range.upperBound {
            let size = Int(bytes[offset])
            total += size
            offset += 1 + size
            guard total <= ColorProfile.maxByteCount else { return nil }
        }
        guard offset == range.upperBound else { return nil }
        var data = Data(capacity: total)
        offset = range.lowerBound
        while offset < range.upperBound {
            let size = Int(bytes[offset])
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset + 1..<offset + 1 + size]))
            offset += 1 + size
        }
        guard let profile = ColorProfile(iccData: data), profile.colorSpace == .rgb else { return nil }
        return profile
    }

    /// The file's XMP packet, nil when it has none that can be used.
    func xmp(in bytes: UnsafeRawBufferPointer) -> Data? {
        // The walk stopped at the trailer's last 0x00; the rest of the trailer precedes it.
        let trailer = Self.xmpTrailer.dropLast()
        guard let range = xmpBytes, range.upperBound <= bytes.count, range.count > trailer.count,
            range.count - trailer.count <= ImageMetadata.maxByteCount
        else { return nil }
        let end = range.upperBound - trailer.count
        guard bytes[end..<range.upperBound].elementsEqual(trailer) else { return nil }
        return Data(UnsafeRawBufferPointer(rebasing: bytes[range.lowerBound..<end]))
    }

    /// The sub-blocks that write `packet` raw followed by the magic trailer (less the terminator,
    /// which the extension's end writes): the bytes read as a chain of length-prefixed blocks. Nil
    /// when the packet cannot be written so (a 0x00 byte in it would end the extension early).
    static func xmpSubBlocks(_ packet: [UInt8]) -> [ArraySlice<UInt8>]? {
        guard !packet.isEmpty, !packet.contains(0) else { return nil }
        let raw = packet + xmpTrailer.dropLast()
        var blocks: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < raw.count {
            let size = Int(raw[offset])
            // Every chain that starts in the text lands in the trailer and ends exactly at its end.
            guard size > 0, offset + 1 + size <= raw.count else { return nil }
            blocks.append(raw[offset + 1..<offset + 1 + size])
            offset += 1 + size
        }
        return blocks
    }
}
