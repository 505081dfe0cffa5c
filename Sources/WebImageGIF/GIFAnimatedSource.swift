import Synchronization
import WebImage

/// The frames of an animated GIF, composited on demand.
///
/// Holds the encoded bytes and the frame index built by one pass over the file; frame N is made
/// by compositing frames onto a cached canvas, so sequential access decodes each frame once and a
/// backwards seek replays from frame 0. Only the current canvas (and, for disposal 3, the saved
/// rectangle) is kept in memory, never every frame, with the giflib session and its index buffer.
/// Thread-safe: the canvas and the session are behind a `Mutex`.
final class GIFAnimatedSource: AnimatedImageSource {
    private let renderer: GIFRenderer
    private let output: GIFOutput
    private let playback: Mutex<GIFPlayback>
    private let decoded = Atomic<Int>(0)

    /// `playback` may hold the canvas after some frames have been drawn (the decoder passes the
    /// state it made for frame 0, so that frame 1 starts from there).
    init(renderer: GIFRenderer, output: GIFOutput, playback: sending GIFPlayback) {
        self.renderer = renderer
        self.output = output
        self.playback = Mutex(playback)
    }

    var frameCount: Int { renderer.container.frames.count }

    /// The raw NETSCAPE2.0 value (0 = forever, N as stored); 1 when the extension is absent.
    var loopCount: Int { renderer.container.rawLoopCount ?? 1 }

    var canvasSize: PixelSize { output.size }

    /// How many GIF frames this source has decoded (LZW and compositing), for the tests that
    /// check sequential access costs one frame per step.
    var decodedFrameCount: Int { decoded.load(ordering: .relaxed) }

    func duration(at index: Int) -> Double { renderer.container.frames[index].duration }

    func storedDuration(at index: Int) -> Double { renderer.container.frames[index].storedDuration }

    func frame(at index: Int) throws -> AnimationFrame {
        guard index >= 0, index < frameCount else {
            throw WebImageError(.decodingFailed, "GIF frame \(index) out of range 0..<\(frameCount)")
        }
        let pixels = try playback.withLock { playback -> PixelBuffer in
            decoded.add(try renderer.advance(&playback, to: index), ordering: .relaxed)
            guard let canvas = playback.canvas?.buffer else {
                throw WebImageError(.decodingFailed, "GIF frame \(index) missing")
            }
            // A full-size frame shares the canvas (as a CGImage snapshot of a bitmap context does);
            // the next draw copies the canvas into pooled storage first (GIFCanvas.draw), so whoever
            // shows this frame keeps it. A resampled or converted frame is new pixels.
            let shaped = output.shape(canvas)
            if shaped.sharesStorage(with: canvas) { playback.canvas?.isShared = true }
            return shaped
        }
        return AnimationFrame(pixels: pixels, duration: duration(at: index))
    }
}

extension PixelBuffer {
    /// Whether both buffers use the same storage (a copy of the other not yet written).
    func sharesStorage(with other: PixelBuffer) -> Bool {
        bytes.withUnsafeBufferPointer { mine in
            other.bytes.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
