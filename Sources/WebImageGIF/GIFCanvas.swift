import WebImage

/// The GIF compositing state: the canvas as shown after the last drawn frame, plus what that
/// frame's disposal will do before the next one is drawn.
///
/// Rules (those of browsers and ImageIO, except the initial fill):
/// - The canvas starts transparent when frame 0 has a transparent index, otherwise filled with
///   entry 0 of frame 0's palette, opaque. This is what Pillow shows for frame 0 (the corpus
///   reference; browsers start transparent); it only matters for canvas areas that frame 0 does
///   not cover, in GIFs whose frame 0 has no transparency.
/// - Disposal 2 clears the frame's rectangle to transparent; disposal 3 restores the rectangle to
///   what it was before the frame was drawn; 0, 1 and 4–7 leave the frame in place.
/// - Pixels equal to the transparent index leave the canvas unchanged; indices outside the palette
///   are opaque black; a GIF without any palette reads indices as grey levels.
/// - Frames are clipped to the canvas.
struct GIFCanvas {
    let width: Int
    let height: Int
    /// Straight RGBA, `width * height * 4` bytes.
    private(set) var pixels: [UInt8]
    /// How many frames have been drawn.
    private(set) var drawnFrames = 0
    private var pendingDisposal: (disposal: GIFDisposal, rect: GIFRect, saved: [UInt8]?)?

    /// A canvas of `size` filled per the initial-fill rule for a GIF whose frame 0 is
    /// `firstRecord` with palette `firstPalette`.
    init(size: PixelSize, firstRecord: GIFFrameRecord, firstPalette: [UInt8]?) {
        width = size.width
        height = size.height
        var fill = RGBA8.clear
        if firstRecord.transparentIndex == nil {
            fill = Self.color(of: 0, in: firstPalette)
        }
        pixels = PixelBuffer(width: width, height: height, alphaMode: .straight, fill: fill).bytes
    }

    /// The colour of palette entry `index`: grey when there is no palette, black when out of range.
    static func color(of index: Int, in palette: [UInt8]?) -> RGBA8 {
        guard let palette else { return RGBA8(r: UInt8(index), g: UInt8(index), b: UInt8(index)) }
        guard index * 3 + 2 < palette.count else { return .black }
        return RGBA8(r: palette[index * 3], g: palette[index * 3 + 1], b: palette[index * 3 + 2])
    }

    /// The part of `rect` inside the canvas (may be empty).
    func clipped(_ rect: GIFRect) -> GIFRect {
        let x0 = min(max(0, rect.x), width), y0 = min(max(0, rect.y), height)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        return GIFRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Applies the previous frame's disposal, then draws `frame` as described by `record`.
    mutating func draw(_ frame: GIFIndexedFrame, record: GIFFrameRecord) {
        applyPendingDisposal()
        let area = clipped(GIFRect(x: record.rect.x, y: record.rect.y, width: frame.width, height: frame.height))
        let saved = record.disposal == .previous ? copy(area) : nil
        pendingDisposal = (record.disposal, area, saved)
        drawnFrames += 1
        guard area.width > 0, area.height > 0 else { return }

        // Palette lookup table: 256 opaque colours as 4-byte RGBA words (memory order r, g, b, a),
        // so each pixel is one load and one store. The transparent index is skipped, not looked up.
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            let color = Self.color(of: index, in: frame.palette)
            table[index] = (UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | 0xFF00_0000).littleEndian
        }
        let transparent = record.transparentIndex ?? -1
        let dx = area.x - record.rect.x, dy = area.y - record.rect.y
        let (frameWidth, canvasWidth) = (frame.width, width)
        pixels.withUnsafeMutableBytes { canvas in
            frame.indices.withUnsafeBufferPointer { indices in
                table.withUnsafeBufferPointer { colors in
                    for row in 0..<area.height {
                        var source = (row + dy) * frameWidth + dx
                        var target = ((area.y + row) * canvasWidth + area.x) * 4
                        let end = source + area.width
                        if transparent < 0 {
                            while source < end {
                                canvas.storeBytes(of: colors[Int(indices[source])], toByteOffset: target, as: UInt32.self)
                                source &+= 1
                                target &+= 4
                            }
                        } else {
                            while source < end {
                                let index = Int(indices[source])
                                if index != transparent {
                                    canvas.storeBytes(of: colors[index], toByteOffset: target, as: UInt32.self)
                                }
                                source &+= 1
                                target &+= 4
                            }
                        }
                    }
                }
            }
        }
    }

    private mutating func applyPendingDisposal() {
        guard let pending = pendingDisposal else { return }
        pendingDisposal = nil
        switch pending.disposal {
        case .keep:
            break
        case .background:
            let clear = [UInt8](repeating: 0, count: pending.rect.width * 4)
            for row in 0..<pending.rect.height {
                let start = ((pending.rect.y + row) * width + pending.rect.x) * 4
                pixels.replaceSubrange(start..<start + clear.count, with: clear)
            }
        case .previous:
            guard let saved = pending.saved else { return }
            let rowBytes = pending.rect.width * 4
            for row in 0..<pending.rect.height {
                let start = ((pending.rect.y + row) * width + pending.rect.x) * 4
                pixels.replaceSubrange(start..<start + rowBytes, with: saved[row * rowBytes..<(row + 1) * rowBytes])
            }
        }
    }

    private func copy(_ rect: GIFRect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 4)
        for row in 0..<rect.height {
            let start = ((rect.y + row) * width + rect.x) * 4
            out.append(contentsOf: pixels[start..<start + rect.width * 4])
        }
        return out
    }

    /// The canvas as a straight-alpha buffer.
    var buffer: PixelBuffer {
        PixelBuffer(width: width, height: height, alphaMode: .straight, bytes: pixels)
    }
}
