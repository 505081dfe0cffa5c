import CGIF
import WebImage

/// Decompresses the images of one GIF file with giflib, on demand, through one giflib handle: the
/// reference that ``GIFFrameDecoder`` (our LZW decoder) must match index for index, used by the
/// tests and the `gif-lzw-differential` fuzz target (giflib also encodes).
///
/// giflib reads the file through a callback over its bytes: the handle is opened once (reading
/// the header, logical screen descriptor and global colour table), and each image is read by
/// moving the read position to its descriptor, so any frame can be decoded without reading the
/// frames before it and without reopening giflib. The index buffer and the colour table are
/// reused from frame to frame. After a giflib error the handle is closed and the next image
/// reopens it.
///
/// Not thread-safe: one decoder belongs to one compositing state (``GIFPlayback``).
final class GIFLibFrameDecoder: GIFIndexDecoding {
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let stream: UnsafeMutablePointer<GIFReadStream>
    /// Reused index storage; kept between frames up to `retainedCapacity` indices.
    private var indices: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    private let retainedCapacity: Int
    private let colors: UnsafeMutablePointer<UInt32>
    /// Whether `colors` holds the global palette (so frames without a local one reuse it).
    private var colorsAreGlobal = false

    /// A decoder that keeps up to `retainedCapacity` indices of storage between frames (the
    /// canvas's pixel count: larger frames, which are clipped anyway, get a buffer of their own).
    init(retainedCapacity: Int) {
        self.retainedCapacity = retainedCapacity
        stream = .allocate(capacity: 1)
        stream.initialize(to: GIFReadStream(bytes: UnsafeRawBufferPointer(start: nil, count: 0)))
        colors = .allocate(capacity: 256)
        colors.initialize(repeating: 0, count: 256)
    }

    deinit {
        close()
        stream.deinitialize(count: 1)
        stream.deallocate()
        colors.deallocate()
        indices.deallocate()
    }

    /// Decodes the image as ``GIFIndexDecoding`` describes, with giflib: one `DGifGetLine` for the
    /// whole image when it is stored in order, otherwise row by row.
    func decode<R>(
        _ bytes: UnsafeRawBufferPointer, container: GIFContainer, record: GIFFrameRecord, maxPixelCount: Int,
        partial: Bool, _ body: (GIFIndexedFrame) throws -> R
    ) throws -> R {
        try record.checkDecodable(in: bytes, container: container, maxPixelCount: maxPixelCount)
        stream.pointee.bytes = bytes
        let gif = try openedHandle()
        do {
            stream.pointee.position = record.descriptorOffset
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK, type == IMAGE_DESC_RECORD_TYPE else {
                throw Self.gifError(gif.pointee.Error, "GIF image descriptor not found")
            }
            guard DGifGetImageDesc(gif) == GIF_OK else {
                throw Self.gifError(gif.pointee.Error, "bad GIF image descriptor")
            }
            // DGifGetImageDesc keeps a copy of every descriptor it reads: drop it, so that a long
            // animation does not grow the handle. (giflib leaves the count to the caller.)
            GifFreeSavedImages(gif)
            gif.pointee.ImageCount = 0
            let description = gif.pointee.Image
            loadColors(local: description.ColorMap, global: gif.pointee.SColorMap)
            let width = Int(description.Width), height = Int(description.Height)
            let count = width * height
            guard width > 0, height > 0 else {
                return try body(GIFIndexedFrame(width: 0, height: 0, indices: nil, colors: colors))
            }
            let storage = indexStorage(count: count)
            defer { if storage.baseAddress != indices.baseAddress { storage.deallocate() } }
            let base = storage.baseAddress!
            let rows = try readIndices(
                gif, into: base, width: width, height: height, interlaced: description.Interlace, partial: partial)
            let result = try body(GIFIndexedFrame(width: width, height: rows, indices: UnsafePointer(base), colors: colors))
            if rows < height { close() }  // giflib stopped mid-image: its handle is spent
            return result
        } catch {
            close()
            throw error
        }
    }

    /// Reads the image data and returns how many rows are whole (`height` unless `partial`): one
    /// `DGifGetLine` for the whole image when it is stored in order, otherwise row by row (in the
    /// four-pass order when interlaced; in order when `partial`, so that the rows read before the
    /// data ran out are known).
    private func readIndices(
        _ gif: UnsafeMutablePointer<GifFileType>, into base: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
        interlaced: Bool, partial: Bool
    ) throws -> Int {
        let count = width * height
        if !interlaced && !partial && count <= Int(Int32.max) {
            guard DGifGetLine(gif, base, Int32(count)) == GIF_OK else {
                throw Self.gifError(gif.pointee.Error, "corrupt GIF image data")
            }
            return height
        }
        for (start, step) in interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)] {
            var row = start
            while row < height {
                guard DGifGetLine(gif, base + row * width, Int32(width)) == GIF_OK else {
                    // Rows come in order when not interlaced: the first `row` are whole.
                    if partial, !interlaced, row > 0 { return row }
                    throw Self.gifError(gif.pointee.Error, "corrupt GIF image data")
                }
                row += step
            }
        }
        return height
    }

    /// Storage for `count` indices: the reused buffer (grown if needed) when the frame fits the
    /// retained capacity, otherwise a buffer for this frame only.
    private func indexStorage(count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if count <= indices.count { return indices }
        guard count <= retainedCapacity else { return .allocate(capacity: count) }
        indices.deallocate()
        indices = .allocate(capacity: count)
        return indices
    }

    /// Fills `colors` from the local colour map, else the global one (kept when already loaded).
    private func loadColors(
        local: UnsafeMutablePointer<ColorMapObject>?, global: UnsafeMutablePointer<ColorMapObject>?
    ) {
        if local == nil && colorsAreGlobal { return }
        colorsAreGlobal = local == nil
        guard let map = local ?? global else {
            // No palette at all: indices read as grey levels.
            for index in 0..<256 {
                let level = UInt32(index)
                colors[index] = (level | level << 8 | level << 16 | 0xFF00_0000).littleEndian
            }
            return
        }
        let count = map.pointee.Colors == nil ? 0 : min(256, max(0, Int(map.pointee.ColorCount)))
        let black = UInt32(0xFF00_0000).littleEndian
        if let entries = map.pointee.Colors {
            for index in 0..<count {
                let color = entries[index]
                colors[index] =
                    (UInt32(color.Red) | UInt32(color.Green) << 8 | UInt32(color.Blue) << 16 | 0xFF00_0000).littleEndian
            }
        }
        (colors + count).update(repeating: black, count: 256 - count)
    }

    /// The open giflib handle, opening it (from the start of the file) if needed.
    private func openedHandle() throws -> UnsafeMutablePointer<GifFileType> {
        if let gif { return gif }
        stream.pointee.position = 0
        colorsAreGlobal = false
        var status: Int32 = 0
        guard let opened = DGifOpen(stream, gifReadCallback, &status) else {
            throw Self.gifError(status, "cannot open GIF")
        }
        gif = opened
        return opened
    }

    private func close() {
        guard let gif else { return }
        var status: Int32 = 0
        DGifCloseFile(gif, &status)
        self.gif = nil
        colorsAreGlobal = false
    }

    /// How many image descriptors the giflib handle holds copies of (0 after every frame).
    var heldDescriptorCount: Int { Int(gif?.pointee.ImageCount ?? 0) }

    static func gifError(_ status: Int32, _ context: String) -> WebImageError {
        let reason = GifErrorString(status).map { String(cString: $0) } ?? "error \(status)"
        if status == D_GIF_ERR_NOT_ENOUGH_MEM {
            return WebImageError(.decodingFailed, "\(context): \(reason)")
        }
        return WebImageError.badData("\(context): \(reason)")
    }
}

/// The bytes giflib reads (the whole file) and the read position, which the decoder moves to
/// each image's descriptor.
struct GIFReadStream {
    var bytes: UnsafeRawBufferPointer
    var position = 0

    /// Copies up to `count` bytes into `destination`; returns how many were copied.
    mutating func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let n = min(count, bytes.count - position)
        guard n > 0, let base = bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(destination).copyMemory(from: base + position, byteCount: n)
        position += n
        return n
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
