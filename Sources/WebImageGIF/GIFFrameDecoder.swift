import WebImage

/// One GIF image as decompressed, lent to a closure: palette indices for its rectangle and the
/// colours they stand for. The pointers are valid only during that call.
struct GIFIndexedFrame {
    var width: Int
    var height: Int
    /// `width * height` palette indices, row-major, top row first (de-interlaced); nil when the
    /// rectangle is empty.
    var indices: UnsafePointer<UInt8>?
    /// 256 colours as 4-byte RGBA words (memory order r, g, b, a), all opaque: the palette that
    /// applies (local, else global), black past its end, or greys when the file has no palette.
    var colors: UnsafePointer<UInt32>
}

/// Decompresses the images of one GIF file on demand, one frame at a time, reusing its buffers.
protocol GIFIndexDecoding: AnyObject {
    /// Decodes the image whose descriptor starts at `record.descriptorOffset` in `bytes` (the
    /// whole file, or as much as has arrived) and lends it to `body`.
    ///
    /// Throws `tooLarge` when the frame's declared area exceeds `maxPixelCount` (before
    /// allocating), `badImageData` when the data is corrupt or cut short.
    ///
    /// With `partial` (a non-interlaced image still arriving, for incremental decoding), the rows
    /// decoded before the data ran out are lent as a shorter frame; none is an error.
    func decode<R>(
        _ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord, maxPixelCount: Int,
        partial: Bool, _ body: (GIFIndexedFrame) throws -> R
    ) throws -> R
}

extension GIFIndexDecoding {
    /// Decodes a complete image (see ``decode(_:container:record:maxPixelCount:partial:_:)``).
    func decode<R>(
        _ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord, maxPixelCount: Int,
        _ body: (GIFIndexedFrame) throws -> R
    ) throws -> R {
        try decode(bytes, container: container, record: record, maxPixelCount: maxPixelCount, partial: false, body)
    }
}

/// Which LZW decompressor turns a GIF's image data into indices.
enum GIFDecompressor: Sendable {
    /// Ours (``GIFLZWDecoder``): what decoding uses.
    case webImage
    /// giflib (``GIFLibFrameDecoder``): the reference it is tested against.
    case giflib

    /// A decoder keeping up to `retainedCapacity` indices of storage between frames.
    func makeDecoder(retainedCapacity: Int) -> any GIFIndexDecoding {
        switch self {
        case .webImage: GIFFrameDecoder(retainedCapacity: retainedCapacity)
        case .giflib: GIFLibFrameDecoder(retainedCapacity: retainedCapacity)
        }
    }
}

/// Decompresses the images of one GIF file with our LZW decoder, index for index as giflib does
/// (``GIFLibFrameDecoder``, the reference), including on damaged data.
///
/// Each image is read from its own descriptor offset, so any frame decodes without the frames
/// before it. The index buffer, the colour table and the LZW tables are reused from frame to
/// frame. Errors match giflib's: a missing descriptor, a truncated colour table or code size, a
/// code size above 8, and the LZW stream's own errors (see ``GIFLZWDecoder``).
///
/// Not thread-safe: one decoder belongs to one compositing state (``GIFPlayback``).
final class GIFFrameDecoder: GIFIndexDecoding {
    private let lzw = GIFLZWDecoder()
    /// Reused index storage (8 bytes longer than the indices, for the LZW decoder's fast copies);
    /// kept between frames up to `retainedCapacity` indices.
    private var indices: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    /// De-interlacing scratch, the same size rules as `indices`.
    private var scratch: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    private let retainedCapacity: Int
    private let colors: UnsafeMutablePointer<UInt32>
    /// Whether `colors` holds the global palette (so frames without a local one reuse it).
    private var colorsAreGlobal = false

    /// A decoder that keeps up to `retainedCapacity` indices of storage between frames (the
    /// canvas's pixel count: larger frames, which are clipped anyway, get a buffer of their own).
    init(retainedCapacity: Int) {
        self.retainedCapacity = retainedCapacity
        colors = .allocate(capacity: 256)
        colors.initialize(repeating: 0, count: 256)
    }

    deinit {
        colors.deallocate()
        indices.deallocate()
        scratch.deallocate()
    }

    func decode<R>(
        _ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord, maxPixelCount: Int,
        partial: Bool, _ body: (GIFIndexedFrame) throws -> R
    ) throws -> R {
        try record.checkDecodable(in: bytes, container: container, maxPixelCount: maxPixelCount)
        // The descriptor, its colour table and the LZW code size, read as giflib reads them.
        var reader = GIFByteReader(bytes: bytes, offset: record.descriptorOffset)
        guard reader.byte() == 0x2C else { throw WebImageError.badData("GIF image descriptor not found") }
        guard reader.skip(9) else { throw WebImageError.badData("bad GIF image descriptor: truncated") }
        let flags = bytes[reader.offset - 1]
        let localStart = reader.offset
        if flags & 0x80 != 0 {
            guard reader.skip(3 << (Int(flags & 0x07) + 1)) else {
                throw WebImageError.badData("bad GIF image descriptor: local colour table truncated")
            }
        }
        guard let codeSize = reader.byte() else {
            throw WebImageError.badData("bad GIF image descriptor: no code size")
        }
        guard codeSize <= 8 else { throw WebImageError.badData("bad GIF image descriptor: LZW code size \(codeSize)") }
        loadColors(
            local: flags & 0x80 != 0
                ? UnsafeRawBufferPointer(rebasing: bytes[localStart..<reader.offset - 1]) : nil,
            global: container.globalPalette)
        let descriptor = record.descriptorOffset + 1
        let width = reader.uint16(at: descriptor + 4), height = reader.uint16(at: descriptor + 6)
        guard width > 0, height > 0 else {
            return try body(GIFIndexedFrame(width: 0, height: 0, indices: nil, colors: colors))
        }
        let count = width * height
        let interlaced = flags & 0x40 != 0
        let storage = Self.storage(&indices, count: count, retainedCapacity: retainedCapacity)
        defer { if storage.baseAddress != indices.baseAddress { storage.deallocate() } }
        let rows: Int
        if interlaced {
            let stream = Self.storage(&scratch, count: count, retainedCapacity: retainedCapacity)
            defer { if stream.baseAddress != scratch.baseAddress { stream.deallocate() } }
            let outcome = lzw.decode(
                bytes, subBlocksAt: reader.offset, minimumCodeSize: Int(codeSize), into: stream.baseAddress!,
                count: count)
            guard outcome.isComplete else { throw Self.corrupt(outcome) }
            // The file stores rows in four passes: put each where it belongs.
            for (order, row) in Self.rowOrder(height: height, interlaced: true).enumerated() {
                (storage.baseAddress! + row * width).update(from: stream.baseAddress! + order * width, count: width)
            }
            rows = height
        } else {
            let outcome = lzw.decode(
                bytes, subBlocksAt: reader.offset, minimumCodeSize: Int(codeSize), into: storage.baseAddress!,
                count: count)
            rows = try Self.wholeRows(outcome, width: width, height: height, partial: partial)
        }
        return try body(
            GIFIndexedFrame(width: width, height: rows, indices: UnsafePointer(storage.baseAddress!), colors: colors))
    }

    /// How many rows of a non-interlaced image to lend: all of them when it decoded whole; with
    /// `partial`, the rows completed before the data ran out (giflib reads such an image row by
    /// row, and its last row fails when the sub-blocks after the last index are cut). None is an
    /// error.
    private static func wholeRows(_ outcome: GIFLZWOutcome, width: Int, height: Int, partial: Bool) throws -> Int {
        if outcome.isComplete { return height }
        guard partial else { throw corrupt(outcome) }
        let rows = outcome.produced == width * height ? height - 1 : outcome.produced / width
        guard rows > 0 else { throw corrupt(outcome) }
        return rows
    }

    private static func corrupt(_ outcome: GIFLZWOutcome) -> WebImageError {
        WebImageError.badData("corrupt GIF image data: \(outcome.failure ?? "unknown error")")
    }

    /// Storage for `count` indices plus 8 bytes: `reused` (grown if needed) when the frame fits
    /// `retainedCapacity`, otherwise a buffer for this frame only.
    private static func storage(
        _ reused: inout UnsafeMutableBufferPointer<UInt8>, count: Int, retainedCapacity: Int
    ) -> UnsafeMutableBufferPointer<UInt8> {
        if count + 8 <= reused.count { return reused }
        guard count <= retainedCapacity else { return .allocate(capacity: count + 8) }
        reused.deallocate()
        reused = .allocate(capacity: count + 8)
        return reused
    }

    /// Fills `colors` from the local colour table (RGB triples), else the global one (kept when
    /// already loaded), else greys.
    private func loadColors(local: UnsafeRawBufferPointer?, global: [UInt8]?) {
        if local == nil && colorsAreGlobal { return }
        colorsAreGlobal = local == nil
        let black = UInt32(0xFF00_0000).littleEndian
        let fill = { (table: UnsafeRawBufferPointer) in
            let count = min(256, table.count / 3)
            for index in 0..<count {
                let (r, g, b) = (table[index * 3], table[index * 3 + 1], table[index * 3 + 2])
                self.colors[index] = (UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000).littleEndian
            }
            (self.colors + count).update(repeating: black, count: 256 - count)
        }
        if let local {
            fill(local)
        } else if let global {
            global.withUnsafeBytes(fill)
        } else {
            // No palette at all: indices read as grey levels.
            for index in 0..<256 {
                let level = UInt32(index)
                colors[index] = (level | level << 8 | level << 16 | 0xFF00_0000).littleEndian
            }
        }
    }

    /// The rows in the order the file stores them: four passes when interlaced.
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        var rows: [Int] = []
        rows.reserveCapacity(height)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            rows.append(contentsOf: stride(from: start, to: height, by: step))
        }
        return rows
    }
}
