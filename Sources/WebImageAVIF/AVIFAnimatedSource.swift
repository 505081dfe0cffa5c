import CAVIF
import WebImage

/// The frames of an AVIF image sequence: the core's ``FrameSource`` over one
/// ``AVIFDecoderSession``, kept with its position so that sequential playback decodes each frame
/// once; a jump seeks from the nearest keyframe. Every AV1 frame is a whole picture (no
/// compositing). The loop count is always 0 (forever): libavif 0.11 does not expose the
/// sequence's edit-list repetitions.
typealias AVIFAnimatedSource = FrameSource<AVIFFrameCursor>

/// An ``AVIFDecoderSession`` over the source's own copy of the bytes, with the pixel limit.
final class AVIFFrameCursor: FrameCursor {
    private let session: AVIFDecoderSession
    private let maxPixelCount: Int

    init(bytes: OwnedBytes, maxPixelCount: Int) throws {
        session = try AVIFDecoderSession(bytes: bytes.buffer, owner: bytes, readsDurations: false)
        try session.limitPixels(to: maxPixelCount)
        self.maxPixelCount = maxPixelCount
    }

    var decodedFrames: Int { session.decodedFrames }

    func frame(at index: Int) throws -> PixelBuffer {
        try session.rgba(at: index, maxPixelCount: maxPixelCount)
    }
}

extension FrameSource where Cursor == AVIFFrameCursor {
    /// The frames of the sequence `info` describes (read and checked against the limits),
    /// resampled to `outputSize`.
    convenience init(bytes: OwnedBytes, info: AVIFContainerInfo, outputSize: PixelSize, alphaMode: AlphaMode, maxPixelCount: Int) {
        self.init(
            format: "AVIF", frameCount: info.frameCount, loopCount: 0, storedDurations: info.durations,
            canvasSize: outputSize, alphaMode: alphaMode
        ) { try AVIFFrameCursor(bytes: bytes, maxPixelCount: maxPixelCount) }
    }
}
