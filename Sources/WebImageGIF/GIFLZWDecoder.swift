import WebImage

/// A fast path for the common GIF image: decompresses the LZW data of a well-formed frame
/// straight into palette indices, without giflib's per-pixel stack.
///
/// It only answers streams giflib decodes the same way: every code valid, the image filled
/// exactly (extra data after the last pixel is ignored, as giflib does), no code after a full
/// table other than a clear. Anything else (a code beyond the table, a string running past the
/// image, data ending early, a minimum code size outside 2…8, an empty rectangle) returns nil and
/// ``GIFFrameDecoder`` decodes the frame with giflib, whose errors and leniencies stay the rule.
enum GIFLZWDecoder {
    /// The frame whose descriptor starts at `record.descriptorOffset`, or nil to use giflib.
    static func decode(_ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord)
        -> GIFIndexedFrame?
    {
        let start = record.descriptorOffset
        guard start + 10 < bytes.count, bytes[start] == 0x2C else { return nil }
        let width = record.rect.width, height = record.rect.height
        guard width > 0, height > 0 else { return nil }
        let flags = bytes[start + 9]
        var offset = start + 10
        var palette = container.globalPalette
        if flags & 0x80 != 0 {
            let length = 3 << (Int(flags & 0x07) + 1)
            guard offset + length < bytes.count else { return nil }
            palette = Array(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]))
            offset += length
        }
        let minimumCodeSize = Int(bytes[offset])
        guard (2...8).contains(minimumCodeSize) else { return nil }
        let total = width * height
        var reader = SubBlockBits(bytes: bytes, offset: offset + 1)
        var decoded = true
        let stream = [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            guard let base = out.baseAddress else { return }
            decoded = decompress(&reader, minimumCodeSize: minimumCodeSize, into: base, count: total)
            initialized = decoded ? total : 0
        }
        guard decoded else { return nil }
        let interlaced = flags & 0x40 != 0
        guard interlaced else { return GIFIndexedFrame(width: width, height: height, indices: stream, palette: palette) }
        // Stored rows are in the four-pass order: put each where it belongs.
        let rows = GIFFrameDecoder.rowOrder(height: height, interlaced: true)
        let indices = [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            stream.withUnsafeBufferPointer { source in
                for (stored, row) in rows.enumerated() {
                    (out.baseAddress! + row * width).initialize(from: source.baseAddress! + stored * width, count: width)
                }
            }
            initialized = total
        }
        return GIFIndexedFrame(width: width, height: height, indices: indices, palette: palette)
    }

    /// Decodes exactly `count` indices into `out`; false at the first irregularity.
    private static func decompress(
        _ reader: inout SubBlockBits, minimumCodeSize: Int, into out: UnsafeMutablePointer<UInt8>, count: Int
    ) -> Bool {
        let clear = 1 << minimumCodeSize
        // Per code: the code its string extends, its last byte, its first byte and its length.
        let table = LZWTable(roots: clear)
        defer { table.deallocate() }
        let (prefix, suffix, firsts, lengths) = (table.prefix, table.suffix, table.firsts, table.lengths)
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var previous = -1
        var written = 0
        while written < count {
            guard let code = reader.read(codeSize) else { return false }
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == clear + 1 { return false }  // the end code before the image is full
            if previous < 0 {
                guard code < clear else { return false }
            } else {
                guard next < 4096, code <= next else { return false }
                // The new entry: the previous string plus the first byte of this one (of the
                // previous one when this code is the entry being made).
                prefix[next] = UInt16(truncatingIfNeeded: previous)
                suffix[next] = firsts[code == next ? previous : code]
                firsts[next] = firsts[previous]
                lengths[next] = lengths[previous] &+ 1
                next += 1
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            let length = Int(lengths[code])
            guard length <= count - written else { return false }
            var position = written + length - 1
            var walk = code
            while walk >= clear {
                out[position] = suffix[walk]
                walk = Int(prefix[walk])
                position -= 1
            }
            out[position] = UInt8(truncatingIfNeeded: walk)
            written += length
            previous = code
        }
        return true
    }
}

/// The LZW string table: 4096 entries of four fields, in one allocation.
private struct LZWTable {
    let prefix: UnsafeMutablePointer<UInt16>
    let lengths: UnsafeMutablePointer<UInt16>
    let suffix: UnsafeMutablePointer<UInt8>
    let firsts: UnsafeMutablePointer<UInt8>

    /// A table whose first `roots` codes stand for themselves.
    init(roots: Int) {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 4096 * 6, alignment: 2)
        prefix = raw.bindMemory(to: UInt16.self, capacity: 4096)
        lengths = (raw + 4096 * 2).bindMemory(to: UInt16.self, capacity: 4096)
        suffix = (raw + 4096 * 4).bindMemory(to: UInt8.self, capacity: 4096)
        firsts = (raw + 4096 * 5).bindMemory(to: UInt8.self, capacity: 4096)
        prefix.initialize(repeating: 0, count: 4096)
        lengths.initialize(repeating: 1, count: 4096)
        suffix.initialize(repeating: 0, count: 4096)
        firsts.initialize(repeating: 0, count: 4096)
        for code in 0..<roots {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            firsts[code] = UInt8(truncatingIfNeeded: code)
        }
    }

    func deallocate() { UnsafeMutableRawPointer(prefix).deallocate() }
}

/// Little-endian codes read across GIF data sub-blocks.
struct SubBlockBits {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    private var remaining = 0
    private var buffer: UInt32 = 0
    private var bits = 0

    init(bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next `size`-bit code, or nil when the sub-blocks end first.
    mutating func read(_ size: Int) -> Int? {
        while bits < size {
            if remaining == 0 {
                guard offset < bytes.count else { return nil }
                remaining = Int(bytes[offset])
                offset += 1
                guard remaining > 0 else { return nil }  // block terminator
            }
            guard offset < bytes.count else { return nil }
            buffer |= UInt32(bytes[offset]) << UInt32(bits)
            offset += 1
            remaining -= 1
            bits += 8
        }
        let code = Int(buffer & ((1 << UInt32(size)) - 1))
        buffer >>= UInt32(size)
        bits -= size
        return code
    }
}
