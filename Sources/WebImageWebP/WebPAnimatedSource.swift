import CWebP
import Synchronization
import WebImage

/// The frames of an animated WebP, decoded on demand by a `WebPAnimDecoder`.
///
/// Keeps a private copy of the encoded bytes; the decoder is created on the first frame request
/// and then kept with its position, so that sequential playback decodes each frame once. Asking
/// for an earlier frame rewinds and replays from frame 0. All decoder access is serialised by a
/// mutex, so the source can be shared across tasks.
final class WebPAnimatedSource: AnimatedImageSource {
    let frameCount: Int
    /// The `ANIM` chunk's loop count: 0 means forever, N means N plays in total.
    let loopCount: Int
    /// The size of the frames returned (the file's canvas, or smaller when scaled down).
    let canvasSize: PixelSize
    /// The file's canvas size.
    let sourceCanvasSize: PixelSize
    /// The `ANMF` durations in seconds, as stored.
    private let storedDurations: [Double]
    private let bytes: OwnedBytes
    private let alphaMode: AlphaMode
    private let cursor = Mutex<WebPAnimationCursor?>(nil)

    /// Reads the container (frame count, loop count, durations) without decoding any pixels.
    ///
    /// `outputSize` is the size every frame is resampled to (the canvas size for no scaling).
    /// Without `readsDurations` (first-frame-only decoding) the frames are counted but not visited.
    init(bytes: OwnedBytes, outputSize: PixelSize?, alphaMode: AlphaMode, readsDurations: Bool = true) throws {
        var data = bytes.webpData
        guard let demuxer = WebPDemux(&data) else {
            throw WebImageError.badData("WebP animation container is corrupt or truncated")
        }
        defer { WebPDemuxDelete(demuxer) }
        let canvas = PixelSize(
            width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
            height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
        let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        guard count > 0 else { throw WebImageError.badData("WebP animation has no frames") }

        var durations: [Double] = []
        durations.reserveCapacity(count)
        var iterator = WebPIterator()
        if readsDurations, WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
            repeat {
                durations.append(Double(max(0, iterator.duration)) / 1000)
            } while durations.count < count && WebPDemuxNextFrame(&iterator) != 0
            WebPDemuxReleaseIterator(&iterator)
        }
        while durations.count < count { durations.append(0) }

        self.bytes = bytes
        self.frameCount = count
        self.loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        self.sourceCanvasSize = canvas
        self.canvasSize = outputSize ?? canvas
        self.storedDurations = durations
        self.alphaMode = alphaMode
    }

    /// How many frames this source has decoded with libwebp, for the tests that check
    /// sequential access costs one frame per step.
    var decodedFrameCount: Int { cursor.withLock { $0?.decodedFrames ?? 0 } }

    /// The played duration (``FrameDurationRule``: 10 ms or less becomes 100 ms).
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
        let composited = try cursor.withLock { state -> PixelBuffer in
            let active: WebPAnimationCursor
            if let existing = state {
                active = existing
            } else {
                active = try WebPAnimationCursor(bytes: bytes)
                state = active
            }
            return try active.frame(at: index)
        }
        // Resampling and alpha conversion run outside the lock.
        let sized = canvasSize == composited.size ? composited : Resampler.resample(composited, to: canvasSize)
        return AnimationFrame(pixels: sized.converted(to: alphaMode), duration: duration(at: index))
    }
}
