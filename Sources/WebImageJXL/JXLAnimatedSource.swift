import CJXL
import Synchronization
import WebImage

/// The frames of an animated JPEG XL, each composited by libjxl and decoded when asked for.
///
/// One decoder is kept with its position, so that sequential playback decodes each frame once;
/// a jump forward skips frames (`JxlDecoderSkipFrames`); a jump back starts a new decoder and
/// skips forward (libjxl 0.7's `JxlDecoderRewind` does not emit the events again reliably). All
/// decoder access is serialised by a mutex, so the source can be shared across tasks.
final class JXLAnimatedSource: AnimatedImageSource {
    let frameCount: Int
    /// The animation header's `num_loops`: 0 means forever.
    let loopCount: Int
    /// The size of the frames returned (the canvas, or smaller for a thumbnail).
    let canvasSize: PixelSize
    private let durations: [Double]
    private let bytes: OwnedBytes
    private let alphaMode: AlphaMode
    private let maxPixelCount: Int
    private let cursor = Mutex<Cursor?>(nil)

    /// A decoder and the index of the frame it decoded last (-1: none yet).
    private final class Cursor {
        let stream: JXLStream
        var index = -1
        init(stream: JXLStream) { self.stream = stream }
    }

    init(
        bytes: OwnedBytes, durations: [Double], loopCount: Int, outputSize: PixelSize, alphaMode: AlphaMode,
        maxPixelCount: Int
    ) {
        self.bytes = bytes
        self.durations = durations
        self.frameCount = durations.count
        self.loopCount = loopCount
        self.canvasSize = outputSize
        self.alphaMode = alphaMode
        self.maxPixelCount = maxPixelCount
    }

    func duration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws -> AnimationFrame {
        guard index >= 0 && index < frameCount else {
            throw WebImageError(.decodingFailed, "frame \(index) is out of range 0..<\(frameCount)")
        }
        let canvas = try cursor.withLock { state -> PixelBuffer in
            let active: Cursor
            if let existing = state, existing.index < index {
                active = existing
            } else {
                // First use, or a frame behind the cursor: a fresh decoder from the start.
                active = Cursor(stream: try JXLStream(bytes: bytes, wantsPixels: true))
                state = active
            }
            do {
                _ = try active.stream.readInfo()
                active.stream.skipFrames(index - active.index - 1)
                guard try active.stream.nextFrame() != nil else {
                    throw WebImageError.badData("JPEG XL animation ends before frame \(index)")
                }
                let pixels = try active.stream.decodeFrame(maxPixelCount: maxPixelCount)
                active.index = index
                return pixels
            } catch {
                state = nil  // a failed decoder starts afresh on the next request
                throw error
            }
        }
        // Resampling and alpha conversion run outside the lock.
        let sized = canvas.size == canvasSize ? canvas : Resampler.resample(canvas, to: canvasSize)
        return AnimationFrame(pixels: sized.converted(to: alphaMode), duration: duration(at: index))
    }
}
