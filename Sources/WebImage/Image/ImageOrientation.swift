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
    /// Lossless: every pixel is moved, none is blended. Flips and rotations by multiples of 90°
    /// (``FlipTransformer``, ``RotateTransformer``) run through this same kernel, composed with the
    /// image's own orientation (``ImageOrientation/followed(by:)``) so that they too move each pixel
    /// once.
    ///
    /// ```swift
    /// let upright = image.pixels.oriented(image.orientation)
    /// ```
    public func oriented(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let map = orientation.storedMapping
        let (w, h) = (width, height)
        let outW = map.swaps ? h : w
        let outH = map.swaps ? w : h
        // The stored index of display pixel (x, y) is origin + x·stepX + y·stepY.
        let origin = (map.mirrorsX ? w - 1 : 0) + (map.mirrorsY ? (h - 1) * w : 0)
        let alongStoredX = map.mirrorsX ? -1 : 1
        let alongStoredY = map.mirrorsY ? -w : w
        let (stepX, stepY) = map.swaps ? (alongStoredY, alongStoredX) : (alongStoredX, alongStoredY)
        let tile = 64
        return bytes.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt32.self)
            return PixelBuffer(width: outW, height: outH, alphaMode: alphaMode) { out in
                out.withMemoryRebound(to: UInt32.self) { dst in
                    guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                    // Tiles keep the strided reads of the swapping orientations within the cache.
                    for tileY in stride(from: 0, to: outH, by: tile) {
                        for tileX in stride(from: 0, to: outW, by: tile) {
                            let endX = Swift.min(tileX + tile, outW)
                            for y in tileY..<Swift.min(tileY + tile, outH) {
                                var i = origin &+ tileX &* stepX &+ y &* stepY
                                var o = y &* outW &+ tileX
                                for _ in tileX..<endX {
                                    d[o] = s[i]
                                    i &+= stepX
                                    o &+= 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
