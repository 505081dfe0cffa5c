import CWebP
import WebImage

/// The frames of an animated WebP: the core's ``FrameSource`` over a `WebPAnimDecoder` cursor.
///
/// The source keeps a private copy of the encoded bytes; the decoder is created on the first
/// frame request and then kept with its position, so that sequential playback decodes each frame
/// once. Asking for an earlier frame rewinds and replays from frame 0.
typealias WebPAnimatedSource = FrameSource<WebPAnimationCursor>

extension WebPAnimationCursor: FrameCursor {}

/// What the demuxer reads of an animated WebP without decoding any pixels.
struct WebPAnimationInfo {
    /// The file's canvas size.
    let canvas: PixelSize
    let frameCount: Int
    /// The `ANIM` chunk's loop count: 0 means forever, N means N plays in total.
    let loopCount: Int
    /// The `ANMF` durations in seconds, as stored (all 0 when not read).
    let storedDurations: [Double]

    /// Reads the container; without `readsDurations` (first-frame-only decoding) the frames are
    /// counted but not visited.
    init(bytes: OwnedBytes, readsDurations: Bool = true) throws {
        var data = bytes.webpData
        guard let demuxer = WebPDemux(&data) else {
            throw WebImageError.badData("WebP animation container is corrupt or truncated")
        }
        defer { WebPDemuxDelete(demuxer) }
        canvas = PixelSize(
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
        frameCount = count
        loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        storedDurations = durations
    }
}

extension FrameSource where Cursor == WebPAnimationCursor {
    /// The frames of the animation `info` describes, resampled to `outputSize` (the canvas when nil).
    convenience init(bytes: OwnedBytes, info: WebPAnimationInfo, outputSize: PixelSize?, alphaMode: AlphaMode) {
        self.init(
            format: "WebP", frameCount: info.frameCount, loopCount: info.loopCount, storedDurations: info.storedDurations,
            canvasSize: outputSize ?? info.canvas, alphaMode: alphaMode
        ) { try WebPAnimationCursor(bytes: bytes) }
    }
}
