import WebImage

/// The frames of an animated GIF, composited on demand: the core's ``FrameSource`` over a
/// ``GIFFrameCursor``.
///
/// The source holds the encoded bytes and the frame index built by one pass over the file; frame
/// N is made by compositing frames onto a cached canvas, so sequential access decodes each frame
/// once and a backwards seek replays from frame 0. Only the current canvas (and, for disposal 3,
/// the saved rectangle) is kept in memory, never every frame, with the decoder session and its
/// index buffer.
typealias GIFAnimatedSource = FrameSource<GIFFrameCursor>

/// One compositing pass over a GIF: the canvas after the last drawn frame and the decoder session.
final class GIFFrameCursor: FrameCursor {
    private let renderer: GIFRenderer
    private let output: GIFOutput
    private var playback: GIFPlayback
    private(set) var decodedFrames = 0

    /// `playback` may hold the canvas after some frames have been drawn (the decoder passes the
    /// state it made for frame 0, so that frame 1 starts from there).
    init(renderer: GIFRenderer, output: GIFOutput, playback: sending GIFPlayback = GIFPlayback()) {
        self.renderer = renderer
        self.output = output
        self.playback = playback
    }

    /// The canvas at frame `index`, already in the output's size and alpha mode.
    func frame(at index: Int) throws -> PixelBuffer {
        decodedFrames += try renderer.advance(&playback, to: index)
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
}

extension FrameSource where Cursor == GIFFrameCursor {
    /// The frames `renderer` composites, shaped by `output`; `playback` is the state the decoder
    /// made for frame 0.
    convenience init(renderer: GIFRenderer, output: GIFOutput, playback: sending GIFPlayback) {
        let container = renderer.container
        self.init(
            format: "GIF", frameCount: container.frames.count,
            // The raw NETSCAPE2.0 value (0 = forever, N as stored); 1 when the extension is absent.
            loopCount: container.rawLoopCount ?? 1, storedDurations: container.frames.map(\.storedDuration),
            canvasSize: output.size, alphaMode: output.alphaMode,
            cursor: GIFFrameCursor(renderer: renderer, output: output, playback: playback)
        ) { GIFFrameCursor(renderer: renderer, output: output) }
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
