import Foundation
import WebImage

/// Encodes still and animated GIF89a files, quantizing each frame with ``PaletteQuantizer``.
///
/// Frame 0's palette is the global colour table; later frames carry local tables. Animations are
/// written as full-canvas frames; a frame is disposed to background (cleared) when the next frame
/// has transparent pixels, otherwise left in place. Delays are the frame durations in centiseconds,
/// rounded (so durations under 15 ms are stored as 0 or 1 and shown for 100 ms by browsers and by
/// our decoder). The NETSCAPE2.0 extension carries the loop count (0 = forever) and is omitted
/// when the loop count is 1.
struct GIFEncoder {
    let quantizer: PaletteQuantizer

    init(dithering: Bool, quality: Double) {
        quantizer = PaletteQuantizer(maxColors: PaletteQuantizer.colorCount(forQuality: quality), dithering: dithering)
    }

    func encode(_ image: Image, firstFrameOnly: Bool) throws -> Data {
        let animation = firstFrameOnly ? nil : image.animation.flatMap { $0.frameCount > 1 ? $0 : nil }
        let size = animation?.canvasSize ?? image.pixelSize
        guard size.width > 0, size.height > 0, size.width <= 0xFFFF, size.height <= 0xFFFF else {
            throw WebImageError(.encodingFailed, "GIF cannot store a \(size) image (1…65535 pixels a side)")
        }
        let frameCount = animation?.frameCount ?? 1

        // Frames are quantized one ahead of writing: the disposal of frame i depends on whether
        // frame i + 1 has transparent pixels. At most two quantized frames exist at a time.
        func quantizedFrame(_ index: Int) throws -> (image: QuantizedImage, duration: Double) {
            guard let animation else { return (quantizer.quantize(image.pixels), 0) }
            let frame = try animation.frame(at: index)
            guard frame.pixels.size == size else {
                throw WebImageError(.encodingFailed, "GIF frame \(index) is \(frame.pixels.size), canvas is \(size)")
            }
            return (quantizer.quantize(frame.pixels), frame.duration)
        }

        let bytes = try GIFWriter.write { writer in
            var current = try quantizedFrame(0)
            try writer.putScreen(width: size.width, height: size.height, palette: Self.table(current.image))
            if let animation, animation.loopCount != 1 {
                try writer.putLoopCount(animation.loopCount)
            }
            for index in 0..<frameCount {
                let next = index + 1 < frameCount ? try quantizedFrame(index + 1) : nil
                let frame = current.image
                if animation != nil || frame.transparentIndex != nil {
                    let centiseconds = (current.duration * 100).rounded()
                    try writer.putControl(
                        disposal: animation == nil ? 0 : (next?.image.transparentIndex != nil ? 2 : 1),
                        delayCentiseconds: centiseconds.isFinite ? Int(min(65535, max(0, centiseconds))) : 0,
                        transparentIndex: frame.transparentIndex)
                }
                try writer.putImage(
                    x: 0, y: 0, width: frame.width, height: frame.height, indices: frame.indices,
                    palette: index == 0 ? nil : Self.table(frame))
                if let next { current = next }
            }
        }
        return Data(bytes)
    }

    /// The colour table for a quantized image: its colours, then the transparent slot.
    private static func table(_ image: QuantizedImage) -> [RGBA8] {
        image.transparentIndex == nil ? image.palette : image.palette + [.clear]
    }
}
