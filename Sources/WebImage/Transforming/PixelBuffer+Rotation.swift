extension PixelBuffer {
    /// These (premultiplied) pixels rotated clockwise by `degrees` about their centre onto a
    /// `canvas`-sized buffer, centred, sampled bilinearly; what falls outside the source is
    /// transparent.
    ///
    /// Each output pixel centre is mapped back into the source (16.16 fixed point, stepped along
    /// the row) and the four nearest pixels are blended with 8-bit weights.
    func rotatedBilinear(degrees: Double, canvas: PixelSize) -> PixelBuffer {
        let radians = degrees * .pi / 180
        var (c, s) = (cos(radians), sin(radians))
        // Exact quarter angles stay exact (cos 90° is 6e-17 in floating point).
        if abs(c) < 1e-12 { c = 0 }
        if abs(s) < 1e-12 { s = 0 }
        let (w, h) = (width, height)
        let (outW, outH) = (canvas.width, canvas.height)
        let one = 65_536.0
        let stepU = Int((c * one).rounded())
        let stepV = Int((-s * one).rounded())
        return bytes.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt32.self)
            return PixelBuffer(width: outW, height: outH, alphaMode: .premultiplied) { out in
                out.withMemoryRebound(to: UInt32.self) { dst in
                    for y in 0..<outH {
                        // Source position (pixel-centre coordinates) of this row's first output centre.
                        let dx = 0.5 - Double(outW) / 2
                        let dy = Double(y) + 0.5 - Double(outH) / 2
                        var u = Int(((c * dx + s * dy + Double(w) / 2 - 0.5) * one).rounded())
                        var v = Int(((-s * dx + c * dy + Double(h) / 2 - 0.5) * one).rounded())
                        var o = y &* outW
                        for _ in 0..<outW {
                            dst[o] = Self.bilinearSample(src, w, h, u, v)
                            u &+= stepU
                            v &+= stepV
                            o &+= 1
                        }
                    }
                }
            }
        }
    }

    /// The bilinear blend at 16.16 position (u, v); transparent outside the source.
    @inline(__always)
    private static func bilinearSample(_ src: UnsafeBufferPointer<UInt32>, _ w: Int, _ h: Int, _ u: Int, _ v: Int)
        -> UInt32
    {
        let x = u >> 16
        let y = v >> 16
        if x < -1 || y < -1 || x >= w || y >= h { return 0 }
        let fx = UInt32(truncatingIfNeeded: (u >> 8) & 255)
        let fy = UInt32(truncatingIfNeeded: (v >> 8) & 255)
        let inside = x >= 0 && y >= 0 && x + 1 < w && y + 1 < h
        @inline(__always) func pixel(_ px: Int, _ py: Int) -> UInt32 {
            if inside || (px >= 0 && py >= 0 && px < w && py < h) { return src[py &* w &+ px] }
            return 0
        }
        let p00 = pixel(x, y)
        let p10 = pixel(x + 1, y)
        let p01 = pixel(x, y + 1)
        let p11 = pixel(x + 1, y + 1)
        let w00 = (256 &- fx) &* (256 &- fy)
        let w10 = fx &* (256 &- fy)
        let w01 = (256 &- fx) &* fy
        let w11 = fx &* fy
        var result: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let sum =
                ((p00 >> shift) & 255) &* w00 &+ ((p10 >> shift) & 255) &* w10 &+ ((p01 >> shift) & 255) &* w01
                &+ ((p11 >> shift) & 255) &* w11
            result |= ((sum &+ 32_768) >> 16) << shift
            shift &+= 8
        }
        return result
    }

    /// These pixels centred on a `size` canvas: cut where larger, transparent margins where smaller
    /// (an odd difference leaves the extra pixel on the right or bottom).
    func centred(on size: PixelSize) -> PixelBuffer {
        if size == self.size { return self }
        var canvas = PixelBuffer(width: size.width, height: size.height, alphaMode: alphaMode)
        let offsetX = (size.width - width) / 2
        let offsetY = (size.height - height) / 2
        let rowBytes = bytesPerRow
        bytes.withUnsafeBufferPointer { src in
            canvas.bytes.withUnsafeMutableBufferPointer { dst in
                for y in 0..<size.height {
                    let sy = y - offsetY
                    guard sy >= 0, sy < height else { continue }
                    let x0 = max(0, offsetX)
                    let x1 = min(size.width, offsetX + width)
                    guard x0 < x1 else { continue }
                    let from = sy * rowBytes + (x0 - offsetX) * 4
                    let to = (y * size.width + x0) * 4
                    for i in 0..<(x1 - x0) * 4 { dst[to + i] = src[from + i] }
                }
            }
        }
        return canvas
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
