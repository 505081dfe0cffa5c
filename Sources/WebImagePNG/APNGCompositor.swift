import WebImage

/// Composites APNG frames onto the canvas, in straight alpha, per the APNG spec.
///
/// Keeps the canvas of the last frame it rendered so that sequential access decodes one frame per
/// step; going backwards restarts from frame 0.
struct APNGCompositor: Sendable {
    let frames: [APNGFrameControl]
    let canvasSize: PixelSize
    /// The canvas as shown for frame `rendered` (its disposal not yet applied).
    private var canvas: PixelBuffer
    private var rendered = -1
    /// The canvas before frame `rendered` was drawn, kept only when that frame disposes to previous.
    private var beforeRendered: PixelBuffer?

    init(frames: [APNGFrameControl], canvasSize: PixelSize) {
        self.frames = frames
        self.canvasSize = canvasSize
        self.canvas = PixelBuffer(width: canvasSize.width, height: canvasSize.height, alphaMode: .straight)
    }

    /// The canvas as shown for frame `index`; `decode` turns a frame's control data into its pixels.
    mutating func render(_ index: Int, decode: (APNGFrameControl) throws -> PixelBuffer) throws -> PixelBuffer {
        if index < rendered { reset() }
        do {
            while rendered < index {
                if rendered >= 0 { dispose(frames[rendered]) }
                let next = frames[rendered + 1]
                // dispose_op PREVIOUS on the first frame restores the initial (transparent) canvas.
                beforeRendered = next.dispose == .previous ? canvas : nil
                let pixels = try decode(next)
                guard pixels.size == next.size else {
                    throw WebImageError.badData("APNG frame \(rendered + 1) decoded to \(pixels.size), not \(next.size)")
                }
                APNGBlending.draw(pixels, onto: &canvas, x: next.x, y: next.y, blend: next.blend)
                PixelStoragePool.shared.recycle(pixels)  // drawn: the next frame's decode reuses it
                rendered += 1
            }
        } catch {
            reset()
            throw error
        }
        return canvas
    }

    private mutating func reset() {
        canvas = PixelBuffer(width: canvasSize.width, height: canvasSize.height, alphaMode: .straight)
        rendered = -1
        beforeRendered = nil
    }

    private mutating func dispose(_ frame: APNGFrameControl) {
        switch frame.dispose {
        case .none:
            break
        case .background:
            APNGBlending.clear(x: frame.x, y: frame.y, width: frame.width, height: frame.height, in: &canvas)
        case .previous:
            if let previous = beforeRendered {
                canvas = previous
            } else {
                APNGBlending.clear(x: frame.x, y: frame.y, width: frame.width, height: frame.height, in: &canvas)
            }
        }
        beforeRendered = nil
    }
}

/// The two APNG blend operations and region clearing, on straight-alpha RGBA8.
enum APNGBlending {
    /// Draws `frame` onto `canvas` with its top-left corner at (`x`, `y`); the frame must fit.
    static func draw(_ frame: PixelBuffer, onto canvas: inout PixelBuffer, x: Int, y: Int, blend: APNGFrameControl.Blend) {
        let rowBytes = frame.width * 4
        let canvasRowBytes = canvas.width * 4
        frame.bytes.withUnsafeBufferPointer { src in
            canvas.bytes.withUnsafeMutableBufferPointer { dst in
                for row in 0..<frame.height {
                    let s = row * rowBytes
                    let d = (y + row) * canvasRowBytes + x * 4
                    if blend == .source {
                        for i in 0..<rowBytes { dst[d + i] = src[s + i] }
                    } else {
                        for p in stride(from: 0, to: rowBytes, by: 4) { over(src, s + p, dst, d + p) }
                    }
                }
            }
        }
    }

    /// Source-over in straight alpha: the APNG spec's `APNG_BLEND_OP_OVER`, rounded to nearest.
    @inline(__always)
    static func over(_ src: UnsafeBufferPointer<UInt8>, _ s: Int, _ dst: UnsafeMutableBufferPointer<UInt8>, _ d: Int) {
        let sa = UInt32(src[s + 3])
        if sa == 255 {
            for c in 0..<4 { dst[d + c] = src[s + c] }
            return
        }
        if sa == 0 { return }
        let da = UInt32(dst[d + 3])
        // Alpha scaled by 255 * 255 to keep the arithmetic exact until the final rounding.
        let dstWeight = da * (255 - sa)
        let srcWeight = sa * 255
        let total = srcWeight + dstWeight
        for c in 0..<3 {
            let value = UInt32(src[s + c]) * srcWeight + UInt32(dst[d + c]) * dstWeight
            dst[d + c] = UInt8((value + total / 2) / total)
        }
        dst[d + 3] = UInt8((total + 127) / 255)
    }

    /// Makes a rectangle of the canvas transparent black.
    static func clear(x: Int, y: Int, width: Int, height: Int, in canvas: inout PixelBuffer) {
        let canvasRowBytes = canvas.width * 4
        canvas.bytes.withUnsafeMutableBufferPointer { dst in
            for row in y..<(y + height) {
                let start = row * canvasRowBytes + x * 4
                for i in start..<(start + width * 4) { dst[i] = 0 }
            }
        }
    }
}
