import Foundation
import Synchronization
import WebImage

/// The frames of an APNG, decoded on demand from the encoded bytes.
///
/// Each frame's data is wrapped in a small PNG stream (the file's IHDR with the frame's size, its
/// PLTE and tRNS, the frame's data as IDAT) and decoded by libpng, then composited. The compositor
/// caches the current canvas, so playing forwards decodes one frame per step.
final class APNGFrameSource: AnimatedImageSource {
    private let data: Data
    private let info: APNGAnimationInfo
    private let alphaMode: AlphaMode
    private let compositor: Mutex<APNGCompositor>
    private let decoded = Atomic<Int>(0)
    /// The size frames are returned at (the canvas, or smaller for thumbnails and scale-down).
    let canvasSize: PixelSize

    init(data: Data, info: APNGAnimationInfo, outputSize: PixelSize, alphaMode: AlphaMode) {
        self.data = data
        self.info = info
        self.alphaMode = alphaMode
        self.canvasSize = outputSize
        self.compositor = Mutex(APNGCompositor(frames: info.frames, canvasSize: info.canvasSize))
    }

    var frameCount: Int { info.frames.count }

    /// How many frames this source has decoded with libpng, for the tests that check sequential
    /// access costs one frame per step.
    var decodedFrameCount: Int { decoded.load(ordering: .relaxed) }
    var loopCount: Int { info.loopCount }

    func duration(at index: Int) -> Double {
        info.frames.indices.contains(index) ? info.frames[index].duration : 0
    }

    func storedDuration(at index: Int) -> Double {
        info.frames.indices.contains(index) ? info.frames[index].storedDuration : 0
    }

    func frame(at index: Int) throws -> AnimationFrame {
        guard info.frames.indices.contains(index) else {
            throw WebImageError(.decodingFailed, "APNG frame \(index) out of range 0..<\(frameCount)")
        }
        // A copy in pooled storage, made under the lock: the compositor's canvas stays unshared,
        // so the next frame is drawn on it in place.
        let straight = try compositor.withLock { compositor in
            try compositor.render(index) { frame in try self.decodePixels(of: frame) }.copied(storage: .shared)
        }
        var pixels = straight.converted(to: alphaMode)
        if pixels.size != canvasSize { pixels = Resampler.resample(pixels, to: canvasSize) }
        return AnimationFrame(pixels: pixels, duration: info.frames[index].duration)
    }

    /// Decodes one frame's own pixels (its region, not the canvas), in straight alpha.
    private func decodePixels(of frame: APNGFrameControl) throws -> PixelBuffer {
        decoded.add(1, ordering: .relaxed)
        let stream = data.withUnsafeBytes { info.stream(for: frame, in: $0) }
        return try stream.withUnsafeBytes { bytes in
            try LibPNGDecoder.decode(bytes, maxPixelCount: max(1, frame.size.pixelCount)) { size in
                guard size == frame.size else { throw WebImageError.badData("APNG frame size mismatch") }
            }.pixels
        }
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
