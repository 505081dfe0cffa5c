import Foundation
import WebImage

/// The frames of an APNG, decoded on demand from the encoded bytes: the core's ``FrameSource``
/// over an ``APNGFrameCursor``.
///
/// Each frame's data is wrapped in a small PNG stream (the file's IHDR with the frame's size, its
/// PLTE and tRNS, the frame's data as IDAT) and decoded by libpng, then composited. The compositor
/// caches the current canvas, so playing forwards decodes one frame per step.
typealias APNGFrameSource = FrameSource<APNGFrameCursor>

/// The compositor of one APNG and the bytes its frames are decoded from.
final class APNGFrameCursor: FrameCursor {
    private let data: Data
    private let info: APNGAnimationInfo
    private var compositor: APNGCompositor
    private(set) var decodedFrames = 0

    init(data: Data, info: APNGAnimationInfo) {
        self.data = data
        self.info = info
        self.compositor = APNGCompositor(frames: info.frames, canvasSize: info.canvasSize)
    }

    /// The canvas at frame `index`, straight alpha, copied into pooled storage: the compositor's
    /// canvas stays unshared, so the next frame is drawn on it in place.
    func frame(at index: Int) throws -> PixelBuffer {
        try compositor.render(index) { frame in try decodePixels(of: frame) }.copied(storage: .shared)
    }

    /// Decodes one frame's own pixels (its region, not the canvas), in straight alpha.
    private func decodePixels(of frame: APNGFrameControl) throws -> PixelBuffer {
        decodedFrames += 1
        let stream = data.withUnsafeBytes { info.stream(for: frame, in: $0) }
        return try stream.withUnsafeBytes { bytes in
            try LibPNGDecoder.decode(bytes, maxPixelCount: max(1, frame.size.pixelCount)) { size in
                guard size == frame.size else { throw WebImageError.badData("APNG frame size mismatch") }
            }.pixels
        }
    }
}

extension FrameSource where Cursor == APNGFrameCursor {
    /// The frames of the APNG `info` describes, resampled to `outputSize`.
    convenience init(data: Data, info: APNGAnimationInfo, outputSize: PixelSize, alphaMode: AlphaMode) {
        self.init(
            format: "APNG", frameCount: info.frames.count, loopCount: info.loopCount,
            storedDurations: info.frames.map(\.storedDuration), canvasSize: outputSize, alphaMode: alphaMode
        ) { APNGFrameCursor(data: data, info: info) }
    }
}

extension APNGAnimationInfo {
    /// A standalone PNG stream holding one frame: IHDR with the frame's size, the shared PLTE and
    /// tRNS chunks, the frame's data as IDAT chunks, IEND.
    func stream(for frame: APNGFrameControl, in bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var writer = PNGChunkWriter()
        writer.appendSignature()
        var header: [UInt8] = []
        header.appendUInt32BE(UInt32(truncatingIfNeeded: frame.width))
        header.appendUInt32BE(UInt32(truncatingIfNeeded: frame.height))
        header.append(contentsOf: headerData.dropFirst(8))
        writer.append(type: PNGChunk.IHDR, data: header)
        for range in sharedChunks { writer.appendRaw(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        for range in frame.dataRanges { writer.append(type: PNGChunk.IDAT, data: UnsafeRawBufferPointer(rebasing: bytes[range])) }
        writer.append(type: PNGChunk.IEND, data: [])
        return writer.bytes
    }
}
