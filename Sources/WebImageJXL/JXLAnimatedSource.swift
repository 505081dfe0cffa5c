import CJXL
import WebImage

/// The frames of an animated JPEG XL, each composited by libjxl: the core's ``FrameSource`` over
/// one decoder kept with its position, so that sequential playback decodes each frame once; a
/// jump forward skips frames (`JxlDecoderSkipFrames`); a jump back starts a new decoder and skips
/// forward (libjxl 0.7's `JxlDecoderRewind` does not emit the events again reliably).
typealias JXLAnimatedSource = FrameSource<JXLFrameCursor>

/// A libjxl decoder and the index of the frame it decoded last (-1: none yet).
final class JXLFrameCursor: FrameCursor {
    private let stream: JXLStream
    private let maxPixelCount: Int
    private var index: Int
    private(set) var decodedFrames: Int

    /// A cursor over `stream`, which has decoded frames up to `index` (-1: none).
    init(stream: JXLStream, index: Int = -1, maxPixelCount: Int) {
        self.stream = stream
        self.index = index
        self.decodedFrames = index + 1
        self.maxPixelCount = maxPixelCount
    }

    /// Only forward: a frame at or behind the cursor needs a new decoder.
    func canReach(_ target: Int) -> Bool { target > index }

    func frame(at target: Int) throws -> PixelBuffer {
        _ = try stream.readInfo()
        stream.skipFrames(target - index - 1)
        guard try stream.nextFrame() != nil else {
            throw WebImageError.badData("JPEG XL animation ends before frame \(target)")
        }
        let pixels = try stream.decodeFrame(maxPixelCount: maxPixelCount)
        index = target
        decodedFrames += 1
        return pixels
    }
}

extension FrameSource where Cursor == JXLFrameCursor {
    /// The frames of an animation whose frame headers store `durations` (seconds), resampled to
    /// `outputSize`; `first` is the decoder that made frame 0, if it may go on.
    convenience init(
        bytes: OwnedBytes, durations: [Double], loopCount: Int, outputSize: PixelSize, alphaMode: AlphaMode,
        maxPixelCount: Int, first: sending JXLFrameCursor? = nil
    ) {
        self.init(
            format: "JPEG XL", frameCount: durations.count, loopCount: loopCount, storedDurations: durations,
            canvasSize: outputSize, alphaMode: alphaMode, cursor: first
        ) { JXLFrameCursor(stream: try JXLStream(bytes: bytes, wantsPixels: true), maxPixelCount: maxPixelCount) }
    }
}
