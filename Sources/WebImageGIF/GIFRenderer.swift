import WebImage

/// How far compositing has gone in one GIF: the canvas after the last drawn frame (nil before
/// frame 0) and the decoder session that decompresses the frames (kept across rewinds).
struct GIFPlayback {
    var canvas: GIFCanvas?
    var decoder: (any GIFIndexDecoding)?
}

/// Composites the frames of one GIF file in order: the encoded bytes, their index and the limits.
struct GIFRenderer: Sendable {
    let bytes: [UInt8]
    let container: GIFContainer
    let maxPixelCount: Int
    /// Our LZW decoder; giflib only as the reference in tests.
    var decompressor = GIFDecompressor.webImage

    /// Advances `playback` until frame `index` has been drawn, restarting from frame 0 when the
    /// canvas is already past it. Returns how many frames were decoded.
    @discardableResult
    func advance(_ playback: inout GIFPlayback, to index: Int) throws -> Int {
        precondition(index >= 0 && index < container.frames.count, "GIF frame index out of range")
        if let current = playback.canvas, current.drawnFrames > index + 1 { playback.canvas = nil }
        let decoder = playback.decoder ?? decompressor.makeDecoder(retainedCapacity: container.canvasSize.pixelCount)
        playback.decoder = decoder
        var decoded = 0
        try bytes.withUnsafeBytes { raw in
            while (playback.canvas?.drawnFrames ?? 0) <= index {
                let record = container.frames[playback.canvas?.drawnFrames ?? 0]
                try decoder.decode(raw, container: container, record: record, maxPixelCount: maxPixelCount) { frame in
                    if playback.canvas == nil {
                        playback.canvas = GIFCanvas(
                            size: container.canvasSize, firstRecord: record, firstColors: frame.colors)
                    }
                    playback.canvas?.draw(frame, record: record)
                }
                decoded += 1
            }
        }
        return decoded
    }
}

/// Output shaping shared by the poster and the animation frames: size and alpha mode.
struct GIFOutput: Sendable {
    let size: PixelSize
    let alphaMode: AlphaMode

    /// The straight-alpha canvas resampled to ``size`` (if different) in ``alphaMode``.
    func shape(_ canvas: PixelBuffer) -> PixelBuffer {
        let sized = canvas.size == size ? canvas : Resampler.resample(canvas.premultiplied(), to: size)
        return sized.converted(to: alphaMode)
    }
}
