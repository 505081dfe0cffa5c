import WebImage

/// Turns a binary map's raster into RGBA pixels and RGBA pixels into a raster.
enum PNMRaster {
    /// Expands `header.channels` samples a pixel (scaled from `header.maxValue` to 255) into straight
    /// RGBA; a sample above the maximum is ``WebImageError/Code/badImageData``.
    static func decode(_ raster: UnsafeRawBufferPointer, header: PNMHeader, maxPixelCount: Int) throws -> PixelBuffer {
        let channels = header.channels
        let scale = Self.scaleTable(maxValue: header.maxValue)
        var tooLarge = false
        let pixels = try PixelBuffer(
            width: header.size.width, height: header.size.height, alphaMode: .straight, maxPixelCount: maxPixelCount
        ) { out in
            let count = header.size.pixelCount
            scale.withUnsafeBufferPointer { table in
                var source = 0
                var target = 0
                for _ in 0..<count {
                    // An index of 256 (no table entry) is a sample above the maximum: marked, then refused.
                    let first = table[Int(raster[source])]
                    switch channels {
                    case 1, 2:
                        out[target] = UInt8(truncatingIfNeeded: first)
                        out[target + 1] = UInt8(truncatingIfNeeded: first)
                        out[target + 2] = UInt8(truncatingIfNeeded: first)
                        let alpha = channels == 2 ? table[Int(raster[source + 1])] : 255
                        out[target + 3] = UInt8(truncatingIfNeeded: alpha)
                        tooLarge = tooLarge || first > 255 || alpha > 255
                    default:
                        let green = table[Int(raster[source + 1])]
                        let blue = table[Int(raster[source + 2])]
                        let alpha = channels == 4 ? table[Int(raster[source + 3])] : 255
                        out[target] = UInt8(truncatingIfNeeded: first)
                        out[target + 1] = UInt8(truncatingIfNeeded: green)
                        out[target + 2] = UInt8(truncatingIfNeeded: blue)
                        out[target + 3] = UInt8(truncatingIfNeeded: alpha)
                        tooLarge = tooLarge || (first | green | blue | alpha) > 255
                    }
                    source += channels
                    target += 4
                }
            }
        }
        if tooLarge { throw WebImageError.badData("Netpbm sample above the maximum value \(header.maxValue)") }
        return pixels
    }

    /// Each stored sample's 8-bit value (rounded), or 256 for samples above `maxValue`.
    private static func scaleTable(maxValue: Int) -> [UInt16] {
        (0...255).map { sample in sample > maxValue ? 256 : UInt16((sample * 255 + maxValue / 2) / maxValue) }
    }

    /// Writes `pixels` (straight alpha) as `channels` samples a pixel: 1 is grey (BT.601 luma, as
    /// libjpeg computes Y), 3 is RGB, 4 is RGBA; alpha is dropped for 1 and 3 (the caller
    /// flattens transparent pixels first).
    static func encode(_ pixels: PixelBuffer, channels: Int, into out: UnsafeMutableRawBufferPointer) {
        pixels.bytes.withUnsafeBufferPointer { source in
            let count = pixels.size.pixelCount
            switch channels {
            case 4:
                out.copyMemory(from: UnsafeRawBufferPointer(source))
            case 3:
                var target = 0
                var index = 0
                for _ in 0..<count {
                    out[target] = source[index]
                    out[target + 1] = source[index + 1]
                    out[target + 2] = source[index + 2]
                    target += 3
                    index += 4
                }
            default:
                var index = 0
                for target in 0..<count {
                    let luma = 19595 * UInt32(source[index]) + 38470 * UInt32(source[index + 1]) + 7471 * UInt32(source[index + 2])
                    out[target] = UInt8(truncatingIfNeeded: (luma + 32768) >> 16)
                    index += 4
                }
            }
        }
    }

    /// Whether every pixel is grey (red, green and blue equal).
    static func isGrey(_ pixels: PixelBuffer) -> Bool {
        pixels.bytes.withUnsafeBufferPointer { source in
            var index = 0
            while index < source.count {
                if source[index] != source[index + 1] || source[index] != source[index + 2] { return false }
                index += 4
            }
            return true
        }
    }
}
