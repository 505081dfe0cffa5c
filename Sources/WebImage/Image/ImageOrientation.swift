/// EXIF orientation (TIFF tag 274), values 1–8.
///
/// WebImage **carries** orientation and never applies it while decoding: ``Image/pixels`` are the
/// pixels as stored, and ``Image/orientation`` says how to display them. Encoders apply it before
/// writing (they do not write EXIF), and ``PixelBuffer/oriented(_:)`` applies it on demand.
///
/// Every size a caller asks for is in the *displayed* orientation, whichever path makes the
/// pixels: a thumbnail box (``ImageDecodingOptions/thumbnailPixelSize``), a
/// ``ResizeTransformer`` size and a ``CropTransformer`` rectangle. For orientations 5–8 the
/// stored pixels are sized with width and height swapped, and the result keeps its orientation:
/// a portrait photo stored 4000×3000 landscape with orientation 6, asked for a 320×1000 box,
/// becomes 427×320 stored pixels that display 320 wide.
public enum ImageOrientation: Int, Hashable, Sendable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether displaying swaps width and height (orientations 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension PixelBuffer {
    /// The pixels as they should be displayed for an EXIF orientation.
    ///
    /// ```swift
    /// let upright = image.pixels.oriented(image.orientation)
    /// ```
    public func oriented(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let (w, h) = (width, height)
        let outW = orientation.swapsDimensions ? h : w
        let outH = orientation.swapsDimensions ? w : h
        return bytes.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt32.self)
            return PixelBuffer(width: outW, height: outH, alphaMode: alphaMode) { out in
                out.withMemoryRebound(to: UInt32.self) { dst in
                    for y in 0..<outH {
                        for x in 0..<outW {
                            // (sx, sy): the stored pixel shown at display position (x, y).
                            let (sx, sy): (Int, Int)
                            switch orientation {
                            case .up: (sx, sy) = (x, y)
                            case .upMirrored: (sx, sy) = (w - 1 - x, y)
                            case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                            case .downMirrored: (sx, sy) = (x, h - 1 - y)
                            case .leftMirrored: (sx, sy) = (y, x)
                            case .right: (sx, sy) = (y, h - 1 - x)
                            case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                            case .left: (sx, sy) = (w - 1 - y, x)
                            }
                            dst[y * outW + x] = src[sy * w + sx]
                        }
                    }
                }
            }
        }
    }
}
