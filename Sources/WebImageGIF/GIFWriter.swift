import CGIF
import WebImage

/// The frame-level GIF89a writer over giflib: screen descriptor, loop, ICC profile and XMP
/// extensions, images with their graphic control extension. ``GIFEncoder`` drives it; tests use it to build GIFs with specific
/// disposal, placement, transparency and interlacing.
///
/// Usage: `try GIFWriter.write { writer in try writer.putScreen(…); try writer.putFrame(…) }`.
final class GIFWriter {
    private let gif: UnsafeMutablePointer<GifFileType>

    private init(gif: UnsafeMutablePointer<GifFileType>) {
        self.gif = gif
    }

    /// Runs `body` with a writer and returns the finished file.
    static func write(_ body: (GIFWriter) throws -> Void) throws -> [UInt8] {
        var sink = GIFWriteSink()
        return try withUnsafeMutablePointer(to: &sink) { sinkPointer in
            var status: Int32 = 0
            guard let gif = EGifOpen(sinkPointer, gifWriteCallback, &status) else {
                throw Self.error(status, "cannot start GIF encoder")
            }
            EGifSetGifVersion(gif, true)
            do {
                try body(GIFWriter(gif: gif))
            } catch {
                EGifCloseFile(gif, &status)
                throw error
            }
            guard EGifCloseFile(gif, &status) == GIF_OK else { throw Self.error(status, "cannot finish GIF") }
            return sinkPointer.pointee.bytes
        }
    }

    /// The logical screen descriptor with an optional global palette.
    func putScreen(width: Int, height: Int, palette: [RGBA8]?, backgroundIndex: Int = 0) throws {
        try Self.withColorMap(palette) { map in
            guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, Int32(backgroundIndex), map) == GIF_OK else {
                throw Self.error(gif.pointee.Error, "cannot write GIF screen descriptor")
            }
        }
    }

    /// The NETSCAPE2.0 application extension: sub-block 1 holds the loop count (0 = forever).
    func putLoopCount(_ loopCount: Int) throws {
        let count = UInt16(clamping: max(0, loopCount))
        let loop: [GifByteType] = [1, GifByteType(count & 0xFF), GifByteType(count >> 8)]
        try putApplicationExtension(Array("NETSCAPE2.0".utf8), blocks: [loop[...]], "loop")
    }

    /// The `ICCRGBG1` `012` application extension: `profile` (an ICC profile's bytes) in sub-blocks
    /// of 255 bytes, as ImageMagick, Pillow and Photoshop write and read it.
    func putColorProfile(_ profile: [UInt8]) throws {
        let blocks = stride(from: 0, to: profile.count, by: 255).map { profile[$0..<min(profile.count, $0 + 255)] }
        try putApplicationExtension(GIFApplicationExtensions.profileIdentifier, blocks: blocks, "ICC profile")
    }

    /// The `XMP Data` `XMP` application extension: the packet's bytes raw, then the magic trailer
    /// (see ``GIFApplicationExtensions``). Returns false, writing nothing, for a packet that
    /// cannot be written so (one with a 0x00 byte).
    @discardableResult
    func putXMP(_ packet: [UInt8]) throws -> Bool {
        guard let blocks = GIFApplicationExtensions.xmpSubBlocks(packet) else { return false }
        try putApplicationExtension(GIFApplicationExtensions.xmpIdentifier, blocks: blocks, "XMP")
        return true
    }

    /// An application extension: the 11-byte identifier and authentication code, then `blocks`
    /// (each 1…255 bytes) as data sub-blocks.
    private func putApplicationExtension(_ identifier: [UInt8], blocks: [ArraySlice<UInt8>], _ name: String) throws {
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
            EGifPutExtensionBlock(gif, Int32(identifier.count), identifier) == GIF_OK
        else { throw Self.error(gif.pointee.Error, "cannot write GIF \(name) extension") }
        for block in blocks {
            let written = block.withUnsafeBufferPointer { EGifPutExtensionBlock(gif, Int32($0.count), $0.baseAddress) }
            guard written == GIF_OK else { throw Self.error(gif.pointee.Error, "cannot write GIF \(name) extension") }
        }
        guard EGifPutExtensionTrailer(gif) == GIF_OK else {
            throw Self.error(gif.pointee.Error, "cannot write GIF \(name) extension")
        }
    }

    /// A graphic control extension: disposal 0–3, delay in centiseconds, transparent index.
    func putControl(disposal: Int, delayCentiseconds: Int, transparentIndex: Int?) throws {
        var control = GraphicsControlBlock()
        control.DisposalMode = Int32(disposal)
        control.UserInputFlag = false
        control.DelayTime = Int32(min(0xFFFF, max(0, delayCentiseconds)))
        control.TransparentColor = transparentIndex.map { Int32($0) } ?? NO_TRANSPARENT_COLOR
        var bytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &bytes)
        guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), bytes) == GIF_OK else {
            throw Self.error(gif.pointee.Error, "cannot write GIF graphic control extension")
        }
    }

    /// An image of `width × height` indices (row-major) at (`x`, `y`), with an optional local
    /// palette; `interlaced` stores the rows in the four-pass order.
    func putImage(
        x: Int, y: Int, width: Int, height: Int, indices: [UInt8], palette: [RGBA8]?, interlaced: Bool = false
    ) throws {
        precondition(indices.count == width * height, "index count must be width × height")
        try Self.withColorMap(palette) { map in
            guard
                EGifPutImageDesc(gif, Int32(x), Int32(y), Int32(width), Int32(height), interlaced, map) == GIF_OK
            else { throw Self.error(gif.pointee.Error, "cannot write GIF image descriptor") }
            var row = [GifPixelType](repeating: 0, count: width)
            for line in GIFFrameDecoder.rowOrder(height: height, interlaced: interlaced) {
                row.withUnsafeMutableBufferPointer { out in
                    for column in 0..<width { out[column] = indices[line * width + column] }
                }
                guard EGifPutLine(gif, &row, Int32(width)) == GIF_OK else {
                    throw Self.error(gif.pointee.Error, "cannot write GIF image data")
                }
            }
        }
    }

    /// Runs `body` with a giflib colour map of `palette` padded with black to a power of two
    /// (at least 2 entries), or with nil.
    private static func withColorMap<T>(
        _ palette: [RGBA8]?, _ body: (UnsafeMutablePointer<ColorMapObject>?) throws -> T
    ) throws -> T {
        guard let palette else { return try body(nil) }
        var size = 2
        while size < palette.count { size *= 2 }
        guard size <= 256 else { throw WebImageError(.encodingFailed, "GIF palettes hold at most 256 colours") }
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size)
        for (i, color) in palette.enumerated() {
            colors[i] = GifColorType(Red: color.r, Green: color.g, Blue: color.b)
        }
        guard let map = GifMakeMapObject(Int32(size), colors) else {
            throw WebImageError(.encodingFailed, "cannot allocate a GIF colour map")
        }
        defer { GifFreeMapObject(map) }
        return try body(map)
    }

    private static func error(_ status: Int32, _ context: String) -> WebImageError {
        let reason = GifErrorString(status).map { String(cString: $0) } ?? "error \(status)"
        return WebImageError(.encodingFailed, "\(context): \(reason)")
    }
}

/// The bytes giflib writes.
struct GIFWriteSink {
    var bytes: [UInt8] = []
}

/// giflib's output callback: appends to the `GIFWriteSink` passed as user data.
private func gifWriteCallback(
    _ gif: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafePointer<GifByteType>?, _ length: Int32
) -> Int32 {
    guard let gif, let buffer, length >= 0, let user = gif.pointee.UserData else { return 0 }
    let sink = user.assumingMemoryBound(to: GIFWriteSink.self)
    sink.pointee.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(length)))
    return length
}
