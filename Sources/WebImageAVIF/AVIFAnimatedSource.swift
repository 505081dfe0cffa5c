import CAVIF
import Synchronization
import WebImage

/// The frames of an AVIF image sequence, decoded on demand.
///
/// Keeps a private copy of the encoded bytes and one ``AVIFDecoderSession`` with its position, so
/// that sequential playback decodes each frame once; a jump seeks from the nearest keyframe.
/// Every AV1 frame is a whole picture (no compositing). All decoder access is serialised by a
/// mutex, so the source can be shared across tasks.
final class AVIFAnimatedSource: AnimatedImageSource {
    let frameCount: Int
    /// Always 0 (forever): libavif 0.11 does not expose the sequence's edit-list repetitions.
    let loopCount = 0
    /// The size of the frames returned (the file's size, or smaller when scaled down).
    let canvasSize: PixelSize
    /// The sample durations in seconds, as stored.
    private let storedDurations: [Double]
    private let bytes: OwnedBytes
    private let alphaMode: AlphaMode
    private let maxPixelCount: Int
    private let cursor = Mutex<AVIFDecoderSession?>(nil)

    /// A source over `bytes` whose container `info` was read and checked against the limits.
    init(bytes: OwnedBytes, info: AVIFContainerInfo, outputSize: PixelSize, alphaMode: AlphaMode, maxPixelCount: Int) {
        self.bytes = bytes
        self.frameCount = info.frameCount
        self.storedDurations = info.durations
        self.canvasSize = outputSize
        self.alphaMode = alphaMode
        self.maxPixelCount = maxPixelCount
    }

    /// The played duration (``FrameDurationRule``: 10 ms or less becomes 100 ms).
    /// How many AV1 frames this source has decoded, for the tests that check that sequential
    /// access costs one frame per step.
    var decodedFrameCount: Int { cursor.withLock { $0?.decodedFrames ?? 0 } }

    func duration(at index: Int) -> Double {
        FrameDurationRule.played(storedDuration(at: index))
    }

    func storedDuration(at index: Int) -> Double {
        storedDurations.indices.contains(index) ? storedDurations[index] : 0
    }

    func frame(at index: Int) throws -> AnimationFrame {
        guard index >= 0 && index < frameCount else {
            throw WebImageError(.decodingFailed, "frame \(index) is out of range 0..<\(frameCount)")
        }
        let decoded = try cursor.withLock { state -> PixelBuffer in
            let session: AVIFDecoderSession
            if let existing = state {
                session = existing
            } else {
                session = try AVIFDecoderSession(bytes: bytes.buffer, owner: bytes, readsDurations: false)
                try session.limitPixels(to: maxPixelCount)
                state = session
            }
            return try session.rgba(at: index, maxPixelCount: maxPixelCount)
        }
        // Resampling and alpha conversion run outside the lock.
        let sized = decoded.size == canvasSize ? decoded : Resampler.resample(decoded, to: canvasSize)
        return AnimationFrame(pixels: sized.converted(to: alphaMode), duration: duration(at: index))
    }
}
