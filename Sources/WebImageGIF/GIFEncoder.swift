import Foundation
import WebImage

/// Encodes still and animated GIF89a files, quantizing each frame with ``PaletteQuantizer``.
///
/// Frame 0's palette is the global colour table; later frames carry local tables. A frame is
/// disposed to background (cleared) when the next frame has transparent pixels, otherwise left in
/// place; an opaque frame that is left in place is cropped to the rectangle that changed since
/// the previous frame. Delays are the frames' stored durations
/// (``AnimatedImageSource/storedDuration(at:)``) in centiseconds, rounded, so a 0 ms frame stays
/// 0; a delay that plays as stored (over 10 ms) is never rounded down into the 100 ms zone of
/// ``FrameDurationRule`` (11–14 ms become 2 centiseconds). The NETSCAPE2.0 extension carries the
/// loop count (0 = forever) and is omitted when the loop count is 1 (absent: played once). A
/// colour profile and an XMP packet, when given, follow as application extensions (see
/// ``GIFApplicationExtensions``), before the first image.
struct GIFEncoder {
    let quantizer: PaletteQuantizer

    init(dithering: Bool, quality: Double) {
        quantizer = PaletteQuantizer(maxColors: PaletteQuantizer.colorCount(forQuality: quality), dithering: dithering)
    }

    func encode(_ image: Image, firstFrameOnly: Bool, profile: ColorProfile? = nil, xmp: Data? = nil) throws -> Data {
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
            return (quantizer.quantize(frame.pixels), animation.storedDuration(at: index))
        }

        let bytes = try GIFWriter.write { writer in
            var current = try quantizedFrame(0)
            try writer.putScreen(width: size.width, height: size.height, palette: Self.table(current.image))
            if let animation, animation.loopCount != 1 {
                try writer.putLoopCount(animation.loopCount)
            }
            if let profile { try writer.putColorProfile([UInt8](profile.data)) }
            if let xmp { try writer.putXMP([UInt8](xmp)) }
            var previous: QuantizedImage?
            for index in 0..<frameCount {
                let next = index + 1 < frameCount ? try quantizedFrame(index + 1) : nil
                let frame = current.image
                let clears = next?.image.transparentIndex != nil
                if animation != nil || frame.transparentIndex != nil {
                    try writer.putControl(
                        disposal: animation == nil ? 0 : (clears ? 2 : 1),
                        delayCentiseconds: Self.delayCentiseconds(current.duration),
                        transparentIndex: frame.transparentIndex)
                }
                // After every frame the canvas shows exactly that (quantized) frame, so an opaque
                // frame that stays in place only needs the rectangle that changed. Frames that are
                // cleared afterwards stay full-canvas, so clearing them clears everything.
                var area = GIFRect(x: 0, y: 0, width: frame.width, height: frame.height)
                if let previous, frame.transparentIndex == nil, !clears {
                    area = Self.changedArea(frame, since: previous)
                }
                try writer.putImage(
                    x: area.x, y: area.y, width: area.width, height: area.height,
                    indices: Self.crop(frame, to: area), palette: index == 0 ? nil : Self.table(frame))
                previous = frame
                if let next { current = next }
            }
        }
        return Data(bytes)
    }

    /// A stored duration in seconds as a GIF delay: centiseconds, rounded, clamped to 0…65535, and
    /// at least 2 when the duration plays as stored, so that rounding never moves a frame into
    /// the 100 ms zone of ``FrameDurationRule``.
    static func delayCentiseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let centiseconds = Int(min(65535, (seconds * 100).rounded()))
        return FrameDurationRule.isReplaced(seconds) ? centiseconds : max(2, centiseconds)
    }

    /// The smallest rectangle (at least 1×1) outside which `frame` shows the same colours as
    /// `previous`.
    static func changedArea(_ frame: QuantizedImage, since previous: QuantizedImage) -> GIFRect {
        if frame.palette == previous.palette, frame.transparentIndex == previous.transparentIndex {
            return changedIndices(frame, since: previous)
        }
        func color(_ image: QuantizedImage, _ i: Int) -> RGBA8 {
            let index = Int(image.indices[i])
            return index == image.transparentIndex || index >= image.palette.count ? .clear : image.palette[index]
        }
        var minX = frame.width, minY = frame.height, maxX = -1, maxY = -1
        for y in 0..<frame.height {
            for x in 0..<frame.width where color(frame, y * frame.width + x) != color(previous, y * frame.width + x) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return GIFRect(x: 0, y: 0, width: 1, height: 1) }
        return GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// ``changedArea(_:since:)`` for two images with one palette: where the indices differ.
    private static func changedIndices(_ frame: QuantizedImage, since previous: QuantizedImage) -> GIFRect {
        let width = frame.width
        var minX = frame.width, minY = frame.height, maxX = -1, maxY = -1
        frame.indices.withUnsafeBufferPointer { a in
            previous.indices.withUnsafeBufferPointer { b in
                for y in 0..<frame.height {
                    let row = y &* width
                    var first = -1
                    var last = -1
                    for x in 0..<width where a[row &+ x] != b[row &+ x] {
                        if first < 0 { first = x }
                        last = x
                    }
                    guard first >= 0 else { continue }
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxX >= 0 else { return GIFRect(x: 0, y: 0, width: 1, height: 1) }
        return GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The indices of `frame` inside `area`, row-major.
    static func crop(_ frame: QuantizedImage, to area: GIFRect) -> [UInt8] {
        if area.width == frame.width && area.height == frame.height { return frame.indices }
        var out: [UInt8] = []
        out.reserveCapacity(area.width * area.height)
        for y in area.y..<area.y + area.height {
            let start = y * frame.width + area.x
            out.append(contentsOf: frame.indices[start..<start + area.width])
        }
        return out
    }

    /// The colour table for a quantized image: its colours, then the transparent slot.
    private static func table(_ image: QuantizedImage) -> [RGBA8] {
        image.transparentIndex == nil ? image.palette : image.palette + [.clear]
    }
}
