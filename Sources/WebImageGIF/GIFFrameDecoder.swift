import CGIF
import WebImage

/// One GIF image decompressed by giflib: palette indices for its rectangle, de-interlaced.
struct GIFIndexedFrame {
    var width: Int
    var height: Int
    /// `width * height` palette indices, row-major, top row first.
    var indices: [UInt8]
    /// RGB triples of the palette that applies (local, else global); nil when the file has none.
    var palette: [UInt8]?
}

/// Decompresses single GIF images on demand: well-formed ones with ``GIFLZWDecoder``, the rest
/// with giflib.
///
/// giflib reads from a virtual stream made of the file's header (signature, logical screen
/// descriptor, global colour table) followed by the bytes from the wanted image descriptor on,
/// so any frame can be decoded without reading the frames before it.
enum GIFFrameDecoder {
    /// The image whose descriptor starts at `record.descriptorOffset`.
    ///
    /// Throws `tooLarge` when the frame's declared area exceeds `maxPixelCount` (before
    /// allocating), `badImageData` when giflib rejects the data.
    ///
    /// With `partial` (a non-interlaced image still arriving), the rows decoded before the data
    /// ran out are returned as a shorter frame (none: `nil` rows, an error).
    static func decode(
        _ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord, maxPixelCount: Int,
        partial: Bool = false
    ) throws -> GIFIndexedFrame {
        let area = PixelSize(width: record.rect.width, height: record.rect.height)
        if area.pixelCount > maxPixelCount {
            throw WebImageError.tooManyPixels(width: area.width, height: area.height, limit: maxPixelCount)
        }
        guard record.descriptorOffset < bytes.count, container.headerLength <= bytes.count else {
            throw WebImageError.badData("GIF frame offset out of range")
        }
        // Well-formed frames take the fast path; giflib decodes the rest (and names their faults).
        // (Data still arriving always ends early, which the fast path leaves to giflib.)
        if !partial, let frame = GIFLZWDecoder.decode(bytes, container: container, record: record) { return frame }
        return try decodeWithGiflib(bytes, container: container, record: record, partial: partial)
    }

    /// The frame decoded by giflib (the fallback, and the reference the fast path is tested against).
    static func decodeWithGiflib(
        _ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord, partial: Bool = false
    ) throws -> GIFIndexedFrame {
        var stream = GIFReadStream(
            head: UnsafeRawBufferPointer(rebasing: bytes[0..<container.headerLength]),
            tail: UnsafeRawBufferPointer(rebasing: bytes[record.descriptorOffset...]))
        return try withUnsafeMutablePointer(to: &stream) { streamPointer in
            var status: Int32 = 0
            guard let gif = DGifOpen(streamPointer, gifReadCallback, &status) else {
                throw gifError(status, "cannot open GIF")
            }
            defer {
                var closeStatus: Int32 = 0
                DGifCloseFile(gif, &closeStatus)
            }
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK, type == IMAGE_DESC_RECORD_TYPE else {
                throw gifError(gif.pointee.Error, "GIF image descriptor not found")
            }
            guard DGifGetImageDesc(gif) == GIF_OK else {
                throw gifError(gif.pointee.Error, "bad GIF image descriptor")
            }
            let description = gif.pointee.Image
            let width = Int(description.Width), height = Int(description.Height)
            let palette = (description.ColorMap ?? gif.pointee.SColorMap).map(rgbTriples)
            guard width > 0, height > 0 else {
                return GIFIndexedFrame(width: 0, height: 0, indices: [], palette: palette)
            }
            // Uninitialised storage that giflib fills row by row: corrupt data throws out of the
            // initialiser, so the rows never written are never touched (nor counted in memory).
            var rows = height
            let indices = try [UInt8](unsafeUninitializedCapacity: width * height) { raster, initialized in
                guard let base = raster.baseAddress else { return }
                for (done, row) in rowOrder(height: height, interlaced: description.Interlace).enumerated() {
                    guard DGifGetLine(gif, base + row * width, Int32(width)) == GIF_OK else {
                        // Rows come in order when not interlaced: the first `done` are whole.
                        if partial, !description.Interlace, done > 0 {
                            rows = done
                            initialized = done * width
                            return
                        }
                        throw gifError(gif.pointee.Error, "corrupt GIF image data")
                    }
                }
                initialized = width * height
            }
            return GIFIndexedFrame(width: width, height: rows, indices: indices, palette: palette)
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

    private static func rgbTriples(_ map: UnsafeMutablePointer<ColorMapObject>) -> [UInt8] {
        let count = max(0, Int(map.pointee.ColorCount))
        guard let colors = map.pointee.Colors else { return [] }
        var triples: [UInt8] = []
        triples.reserveCapacity(count * 3)
        for i in 0..<count {
            triples.append(colors[i].Red)
            triples.append(colors[i].Green)
            triples.append(colors[i].Blue)
        }
        return triples
    }

    static func gifError(_ status: Int32, _ context: String) -> WebImageError {
        let reason = GifErrorString(status).map { String(cString: $0) } ?? "error \(status)"
        if status == D_GIF_ERR_NOT_ENOUGH_MEM {
            return WebImageError(.decodingFailed, "\(context): \(reason)")
        }
        return WebImageError.badData("\(context): \(reason)")
    }
}

/// The bytes giflib reads: `head` then `tail`, consumed front to back.
struct GIFReadStream {
    let head: UnsafeRawBufferPointer
    let tail: UnsafeRawBufferPointer
    var position = 0

    /// Copies up to `count` bytes into `destination`; returns how many were copied.
    mutating func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var copied = 0
        while copied < count {
            let (segment, start) = position < head.count ? (head, position) : (tail, position - head.count)
            let available = segment.count - start
            guard available > 0, let base = segment.baseAddress else { break }
            let n = min(available, count - copied)
            (destination + copied).update(from: base.assumingMemoryBound(to: UInt8.self) + start, count: n)
            copied += n
            position += n
        }
        return copied
    }
}

/// giflib's input callback: reads from the `GIFReadStream` passed as user data.
private func gifReadCallback(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ length: Int32
) -> Int32 {
    guard let gif, let buffer, length > 0, let user = gif.pointee.UserData else { return 0 }
    let stream = user.assumingMemoryBound(to: GIFReadStream.self)
    return Int32(stream.pointee.read(into: buffer, count: Int(length)))
}
