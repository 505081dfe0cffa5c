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
    /// Whether an image handed out may share ``pixels``. The next draw then works on a copy in
    /// pooled storage, instead of its first write copying the canvas into a fresh allocation: a
    /// player showing frame N while frame N + 1 is drawn holds two canvases, no more.
    var isShared = false

    /// A canvas of `size` filled per the initial-fill rule for a GIF whose frame 0 is
    /// `firstRecord`, drawn with the colour table `firstColors` (see ``GIFIndexedFrame/colors``).
    init(size: PixelSize, firstRecord: GIFFrameRecord, firstColors: UnsafePointer<UInt32>) {
        width = size.width
        height = size.height
        var fill = RGBA8.clear
        if firstRecord.transparentIndex == nil {
            let word = UInt32(littleEndian: firstColors[0])
            fill = RGBA8(
                r: UInt8(truncatingIfNeeded: word), g: UInt8(truncatingIfNeeded: word >> 8),
                b: UInt8(truncatingIfNeeded: word >> 16))
        }
        // Pooled storage: a player looping over the GIF starts a canvas per loop, and the last
        // loop's canvas goes back to the pool once its frame is no longer shown.
        pixels = PixelBuffer(width: width, height: height, alphaMode: .straight, storage: .shared, fill: fill).bytes
    }

    /// The part of `rect` inside the canvas (may be empty).
    func clipped(_ rect: GIFRect) -> GIFRect {
        let x0 = min(max(0, rect.x), width), y0 = min(max(0, rect.y), height)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        return GIFRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Applies the previous frame's disposal, then draws `frame` as described by `record`.
    mutating func draw(_ frame: GIFIndexedFrame, record: GIFFrameRecord) {
        if isShared {
            // The images sharing the old storage keep it; it goes back to the pool when they are gone.
            pixels = buffer.copied(storage: .shared).bytes
            isShared = false
        }
        applyPendingDisposal()
        let area = clipped(GIFRect(x: record.rect.x, y: record.rect.y, width: frame.width, height: frame.height))
        let saved = record.disposal == .previous ? copy(area) : nil
        pendingDisposal = (record.disposal, area, saved)
        drawnFrames += 1
        guard area.width > 0, area.height > 0, let indices = frame.indices else { return }

        // Each pixel is one byte load, one table load and one 4-byte store; the transparent index
        // is skipped, not looked up.
        let colors = frame.colors
        let transparent = record.transparentIndex ?? -1
        let (frameWidth, canvasWidth) = (frame.width, width)
        let firstSource = (area.y - record.rect.y) * frameWidth + (area.x - record.rect.x)
        pixels.withUnsafeMutableBytes { canvas in
            guard let base = canvas.baseAddress else { return }
            for row in 0..<area.height {
                let source = indices + firstSource + row * frameWidth
                let target = base + ((area.y + row) * canvasWidth + area.x) * 4
                if transparent < 0 {
                    Self.copyRow(source, to: target, count: area.width, colors: colors)
                } else {
                    Self.copyRow(source, to: target, count: area.width, colors: colors, skipping: UInt8(transparent))
                }
            }
        }
    }

    /// Writes the colours of `count` indices, four at a time.
    private static func copyRow(
        _ source: UnsafePointer<UInt8>, to target: UnsafeMutableRawPointer, count: Int, colors: UnsafePointer<UInt32>
    ) {
        var i = 0
        while i &+ 4 <= count {
            let (a, b, c, d) = (source[i], source[i &+ 1], source[i &+ 2], source[i &+ 3])
            target.storeBytes(of: colors[Int(a)], toByteOffset: i &* 4, as: UInt32.self)
            target.storeBytes(of: colors[Int(b)], toByteOffset: i &* 4 &+ 4, as: UInt32.self)
            target.storeBytes(of: colors[Int(c)], toByteOffset: i &* 4 &+ 8, as: UInt32.self)
            target.storeBytes(of: colors[Int(d)], toByteOffset: i &* 4 &+ 12, as: UInt32.self)
            i &+= 4
        }
        while i < count {
            target.storeBytes(of: colors[Int(source[i])], toByteOffset: i &* 4, as: UInt32.self)
            i &+= 1
        }
    }

    /// Writes the colours of `count` indices, leaving the pixels of `transparent` unchanged.
    ///
    /// Eight indices at a time, tested on one 8-byte word: a group without the transparent index
    /// is written without a test per pixel, a group of only the transparent index is skipped.
    private static func copyRow(
        _ source: UnsafePointer<UInt8>, to target: UnsafeMutableRawPointer, count: Int, colors: UnsafePointer<UInt32>,
        skipping transparent: UInt8
    ) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = UInt64(transparent) &* ones
        var i = 0
        while i &+ 8 <= count {
            // A zero byte in `group` is a transparent pixel (the has-a-zero-byte test is exact).
            let group = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self) ^ pattern
            if group == 0 {
                // all transparent
            } else if (group &- ones) & ~group & (ones &* 0x80) == 0 {
                for k in 0..<8 {
                    target.storeBytes(of: colors[Int(source[i &+ k])], toByteOffset: (i &+ k) &* 4, as: UInt32.self)
                }
            } else {
                for k in 0..<8 {
                    let index = source[i &+ k]
                    if index != transparent {
                        target.storeBytes(of: colors[Int(index)], toByteOffset: (i &+ k) &* 4, as: UInt32.self)
                    }
                }
            }
            i &+= 8
        }
        while i < count {
            let index = source[i]
            if index != transparent {
                target.storeBytes(of: colors[Int(index)], toByteOffset: i &* 4, as: UInt32.self)
            }
            i &+= 1
        }
    }

    private mutating func applyPendingDisposal() {
        guard let pending = pendingDisposal else { return }
        pendingDisposal = nil
        let rect = pending.rect
        guard rect.width > 0, rect.height > 0 else { return }
        let rowBytes = rect.width * 4
        let canvasWidth = width
        switch pending.disposal {
        case .keep:
            break
        case .background:
            pixels.withUnsafeMutableBytes { canvas in
                for row in 0..<rect.height {
                    let start = ((rect.y + row) * canvasWidth + rect.x) * 4
                    UnsafeMutableRawBufferPointer(rebasing: canvas[start..<start + rowBytes]).initializeMemory(
                        as: UInt8.self, repeating: 0)
                }
            }
        case .previous:
            guard let saved = pending.saved else { return }
            pixels.withUnsafeMutableBytes { canvas in
                saved.withUnsafeBytes { saved in
                    for row in 0..<rect.height {
                        let start = ((rect.y + row) * canvasWidth + rect.x) * 4
                        UnsafeMutableRawBufferPointer(rebasing: canvas[start..<start + rowBytes]).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: saved[row * rowBytes..<(row + 1) * rowBytes]))
                    }
                }
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

    /// The canvas as a buffer sharing its storage (no copy), marked so that the next draw copies first.
    mutating func sharedBuffer() -> PixelBuffer {
        isShared = true
        return buffer
    }

    /// The canvas as a straight-alpha buffer (sharing its storage until either is written).
    var buffer: PixelBuffer {
        PixelBuffer(width: width, height: height, alphaMode: .straight, bytes: pixels)
    }
}
