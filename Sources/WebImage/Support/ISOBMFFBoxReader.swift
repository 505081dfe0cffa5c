/// The boxes of one level of an ISO base media file (HEIF, AVIF, a JPEG XL container): 32-bit
/// sizes, a 64-bit `largesize` after a size of 1, and a size of 0 for "to the end".
///
/// Reads nothing beyond `end`; a box whose size does not fit ends the walk.
///
/// ```swift
/// var boxes = ISOBMFFBoxReader(bytes: buffer, start: 0, end: buffer.count)
/// while let box = boxes.next() { if box.type == ISOBMFFBoxReader.fourCC("Exif") { … } }
/// ```
package struct ISOBMFFBoxReader {
    package let bytes: UnsafeRawBufferPointer
    package var start: Int
    package let end: Int

    /// A reader of the boxes in `bytes[start..<end]`.
    package init(bytes: UnsafeRawBufferPointer, start: Int, end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = min(end, bytes.count)
    }

    /// The next box's type and body (after its header).
    package mutating func next() -> (type: UInt32, body: Range<Int>)? {
        guard start + 8 <= end, let size32 = Self.read(bytes, at: start, bytes: 4),
            let type = Self.read(bytes, at: start + 4, bytes: 4)
        else { return nil }
        var header = 8
        var size = size32
        if size32 == 1 {
            guard let large = Self.read(bytes, at: start + 8, bytes: 8) else { return nil }
            size = large
            header = 16
        } else if size32 == 0 {
            size = end - start
        }
        guard size >= header, size <= end - start else { return nil }
        defer { start += size }
        return (UInt32(type), start + header..<start + size)
    }

    /// The body of the first box of `type` at this level, searched from this reader's position
    /// (a full box's version and flags included).
    package func child(_ type: StaticString) -> Range<Int>? {
        let wanted = Self.fourCC(type)
        var reader = self
        while let box = reader.next() {
            if box.type == wanted { return box.body }
        }
        return nil
    }

    /// A four-character code as the big-endian number boxes store.
    package static func fourCC(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The big-endian number of `count` (at most 8) bytes at `offset`; nil when it does not fit.
    package static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int, bytes count: Int) -> Int? {
        guard offset >= 0, count <= 8, offset <= bytes.count - count else { return nil }
        var value: UInt64 = 0
        for index in 0..<count { value = value << 8 | UInt64(bytes[offset + index]) }
        return value > UInt64(Int.max) ? nil : Int(value)
    }
}
