import WebImage

/// Composites the frames of one GIF file in order: the encoded bytes, their index and the limits.
struct GIFRenderer: Sendable {
    let bytes: [UInt8]
    let container: GIFContainer
    let maxPixelCount: Int

    /// Advances `canvas` (nil: nothing drawn yet) until frame `index` has been drawn, restarting
    /// from frame 0 when the canvas is already past it. Returns how many frames were decoded.
    @discardableResult
    func advance(_ canvas: inout GIFCanvas?, to index: Int) throws -> Int {
        precondition(index >= 0 && index < container.frames.count, "GIF frame index out of range")
        if let current = canvas, current.drawnFrames > index + 1 { canvas = nil }
        var decoded = 0
        try bytes.withUnsafeBytes { raw in
            while (canvas?.drawnFrames ?? 0) <= index {
                let next = canvas?.drawnFrames ?? 0
                let record = container.frames[next]
                let frame = try GIFFrameDecoder.decode(
                    raw, container: container, record: record, maxPixelCount: maxPixelCount)
                if canvas == nil {
                    canvas = GIFCanvas(
                        size: container.canvasSize,
                        firstRecord: record, firstPalette: frame.palette)
                }
                canvas?.draw(frame, record: record)
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
