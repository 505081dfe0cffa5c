import Foundation

/// ThumbHash, Evan Wallace's compact image placeholder: about 25 bytes that an app turns into a
/// blurred preview of the image, with its average colour, aspect ratio and alpha, while the image
/// loads.
///
/// Written from the algorithm's published description: the image, composited over its own
/// average colour, is split into a luminance channel, two colour-difference channels and (when
/// any pixel is translucent) alpha; each is reduced to a few low-frequency DCT coefficients
/// (more for luminance, along the longer side), quantised to 4 bits behind a 5- or 6-byte header
/// holding the DC terms, the scales and the shape.
///
/// ```swift
/// let small = try ImageCodersManager.standard().decode(data, options: .init(thumbnailPixelSize: PixelSize(width: 100, height: 100)))
/// let hash = try ThumbHash.encode(small.pixels)   // each side at most 100 px
/// print(Data(hash).base64EncodedString())
/// ```
public enum ThumbHash {
    /// The largest width or height ``encode(_:)`` takes.
    public static let maxSide = 100

    /// The hash of `pixels`, whose sides must be 1 to ``maxSide``; premultiplied pixels are read
    /// as their straight colours. Throws ``WebImageError/Code/invalidTransform`` for other sizes.
    public static func encode(_ pixels: PixelBuffer) throws -> [UInt8] {
        let (width, height) = (pixels.width, pixels.height)
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw WebImageError(.invalidTransform, "ThumbHash takes images of at most \(maxSide)×\(maxSide) pixels (got \(width)×\(height))")
        }
        let count = width * height
        var red = [Double](repeating: 0, count: count)
        var green = red
        var blue = red
        var alpha = red
        for y in 0..<height {
            for x in 0..<width {
                let pixel = pixels[x, y]
                let a = Double(pixel.a) / 255
                var (r, g, b) = (Double(pixel.r) / 255, Double(pixel.g) / 255, Double(pixel.b) / 255)
                if pixels.alphaMode == .premultiplied {
                    // Straight colour: premultiplied values divided by their alpha.
                    (r, g, b) = a > 0 ? (min(1, r / a), min(1, g / a), min(1, b / a)) : (0, 0, 0)
                }
                let index = y * width + x
                (red[index], green[index], blue[index], alpha[index]) = (r, g, b, a)
            }
        }

        // The average colour, weighted by alpha; its alpha is the mean.
        var (averageR, averageG, averageB, totalAlpha) = (0.0, 0.0, 0.0, 0.0)
        for index in 0..<count {
            averageR += alpha[index] * red[index]
            averageG += alpha[index] * green[index]
            averageB += alpha[index] * blue[index]
            totalAlpha += alpha[index]
        }
        if totalAlpha > 0 {
            averageR /= totalAlpha
            averageG /= totalAlpha
            averageB /= totalAlpha
        }
        let hasAlpha = totalAlpha < Double(count)
        // Luminance coefficients along each side: 7 on the longer side (5 with alpha), in proportion on the other.
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longer = Double(max(width, height))
        let lx = max(1, Int((luminanceLimit * Double(width) / longer).rounded()))
        let ly = max(1, Int((luminanceLimit * Double(height) / longer).rounded()))

        // Composited over the average colour, then L (luminance), P and Q (colour differences), A.
        var l = [Double](repeating: 0, count: count)
        var p = l
        var q = l
        for index in 0..<count {
            let a = alpha[index]
            let r = averageR * (1 - a) + a * red[index]
            let g = averageG * (1 - a) + a * green[index]
            let b = averageB * (1 - a) + a * blue[index]
            l[index] = (r + g + b) / 3
            p[index] = (r + g) / 2 - b
            q[index] = r - g
        }
        let lChannel = Channel(l, width: width, height: height, nx: max(3, lx), ny: max(3, ly))
        let pChannel = Channel(p, width: width, height: height, nx: 3, ny: 3)
        let qChannel = Channel(q, width: width, height: height, nx: 3, ny: 3)
        let aChannel = hasAlpha ? Channel(alpha, width: width, height: height, nx: 5, ny: 5) : nil

        let isLandscape = width > height
        let header24 =
            quantised(63 * lChannel.dc) | quantised(31.5 + 31.5 * pChannel.dc) << 6 | quantised(31.5 + 31.5 * qChannel.dc) << 12
            | quantised(31 * lChannel.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (isLandscape ? ly : lx) | quantised(63 * pChannel.scale) << 3 | quantised(63 * qChannel.scale) << 9 | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16), UInt8(header16 & 255), UInt8(header16 >> 8),
        ]
        if let aChannel { hash.append(UInt8(quantised(15 * aChannel.dc) | quantised(15 * aChannel.scale) << 4)) }
        // The AC terms, two 4-bit values a byte, low nibble first.
        var isOdd = false
        for channel in [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? []) {
            for term in channel.ac {
                let nibble = UInt8(quantised(15 * term))
                if isOdd { hash[hash.count - 1] |= nibble << 4 } else { hash.append(nibble) }
                isOdd.toggle()
            }
        }
        return hash
    }

    /// The average colour a hash stands for, straight RGBA from 0 to 1.
    public static func averageColor(of hash: [UInt8]) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        guard hash.count >= 5 else { return (0, 0, 0, 0) }
        let header = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let l = Double(header & 63) / 63
        let p = Double((header >> 6) & 63) / 31.5 - 1
        let q = Double((header >> 12) & 63) / 31.5 - 1
        let hasAlpha = header >> 23 != 0
        let a = hasAlpha && hash.count > 5 ? Double(hash[5] & 15) / 15 : 1
        let b = l - 2.0 / 3.0 * p
        let r = (3 * l - b + q) / 2
        let g = r - q
        func clamp(_ value: Double) -> Double { min(1, max(0, value)) }
        return (clamp(r), clamp(g), clamp(b), a)
    }

    /// The width-to-height ratio a hash approximates (from its luminance coefficient counts).
    public static func approximateAspectRatio(of hash: [UInt8]) -> Double {
        guard hash.count >= 5 else { return 1 }
        let hasAlpha = hash[2] & 0x80 != 0
        let isLandscape = hash[4] & 0x80 != 0
        let limit = hasAlpha ? 5.0 : 7.0
        let stored = Double(hash[3] & 7)
        return isLandscape ? limit / stored : stored / limit
    }

    private static func quantised(_ value: Double) -> Int { Int(value.rounded()) }

    /// One channel's low-frequency DCT terms: the DC term, the AC terms mapped to 0–1 by the
    /// largest magnitude, and that magnitude (the scale).
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        init(_ values: [Double], width: Int, height: Int, nx: Int, ny: Int) {
            var horizontal = [Double](repeating: 0, count: width)
            // Only the triangle of low frequencies: cx·ny < nx·(ny − cy).
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    for x in 0..<width { horizontal[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) }
                    var sum = 0.0
                    for y in 0..<height {
                        let vertical = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                        let row = y * width
                        for x in 0..<width { sum += values[row + x] * horizontal[x] * vertical }
                    }
                    let term = sum / Double(width * height)
                    if cx == 0 && cy == 0 {
                        dc = term
                    } else {
                        ac.append(term)
                        scale = max(scale, abs(term))
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        }
    }
}
