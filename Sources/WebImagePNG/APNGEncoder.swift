import WebImage

/// Writes APNG files: libpng compresses each full-canvas frame; the acTL, fcTL and fdAT chunks
/// around that data are written here.
///
/// Every frame covers the whole canvas with `dispose_op` NONE and `blend_op` SOURCE, so each frame
/// is shown exactly as given. Frame 0 is also the default image (its data is the IDAT).
enum APNGEncoder {
    /// One frame to write.
    struct Frame {
        var pixels: PixelBuffer
        var duration: Double
    }

    /// Encodes `frameCount` frames (all of one size, asked for in order) looping `loopCount`
    /// times (0 = forever).
    ///
    /// Streams: one frame's pixels and its compressed data at a time, besides the file being
    /// written. Every frame shares one colour type, RGB while every frame is opaque: the frames
    /// are written as RGB until one has alpha, which restarts the file as RGBA (so an animation
    /// whose frames are all opaque, or whose frame 0 has alpha, is decoded once).
    static func encode(frameCount: Int, loopCount: Int, compressionLevel: Int, frame: (Int) throws -> Frame) throws
        -> [UInt8]
    {
        guard frameCount > 0 else { throw WebImageError(.encodingFailed, "an APNG needs at least one frame") }
        let first = try frame(0)
        let firstIsOpaque = first.pixels.isOpaque
        if firstIsOpaque,
            let bytes = try write(
                frameCount: frameCount, loopCount: loopCount, opaque: true, compressionLevel: compressionLevel,
                first: first, frame: frame)
        {
            return bytes
        }
        guard
            let bytes = try write(
                frameCount: frameCount, loopCount: loopCount, opaque: false, compressionLevel: compressionLevel,
                first: firstIsOpaque ? try frame(0) : first, frame: frame)
        else { throw WebImageError(.encodingFailed, "the APNG writer stopped on an RGBA frame") }
        return bytes
    }

    /// The file with every frame as RGB (`opaque`) or RGBA; nil when `opaque` and a frame has alpha.
    private static func write(
        frameCount: Int, loopCount: Int, opaque: Bool, compressionLevel: Int, first: Frame,
        frame: (Int) throws -> Frame
    ) throws -> [UInt8]? {
        let size = first.pixels.size
        var writer = PNGChunkWriter()
        writer.appendSignature()
        var sequence: UInt32 = 0
        for index in 0..<frameCount {
            let current = index == 0 ? first : try frame(index)
            if current.pixels.size != size {
                throw WebImageError(.encodingFailed, "APNG frame \(index) is \(current.pixels.size), not \(size)")
            }
            if opaque && index > 0 && !current.pixels.isOpaque { return nil }
            let png = try PNGStillEncoder.encode(current.pixels, opaque: opaque, compressionLevel: compressionLevel)
            try png.withUnsafeBytes { bytes in
                let reader = PNGChunkReader(bytes: bytes)
                let chunks = reader.chunks()
                guard let header = chunks.first, header.type == PNGChunk.IHDR else {
                    throw WebImageError(.encodingFailed, "libpng wrote no IHDR")
                }
                if index == 0 {
                    writer.appendRaw(UnsafeRawBufferPointer(rebasing: bytes[header.fullRange]))
                    var control: [UInt8] = []
                    control.appendUInt32BE(UInt32(frameCount))
                    control.appendUInt32BE(UInt32(clamping: max(0, loopCount)))
                    writer.append(type: PNGChunk.acTL, data: control)
                }
                writer.append(type: PNGChunk.fcTL, data: frameControl(sequence, current))
                sequence &+= 1
                for chunk in chunks where chunk.type == PNGChunk.IDAT {
                    let data = UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange])
                    if index == 0 {
                        writer.append(type: PNGChunk.IDAT, data: data)
                    } else {
                        var payload: [UInt8] = []
                        payload.reserveCapacity(4 + data.count)
                        payload.appendUInt32BE(sequence)
                        payload.append(contentsOf: data)
                        sequence &+= 1
                        writer.append(type: PNGChunk.fdAT, data: payload)
                    }
                }
            }
        }
        writer.append(type: PNGChunk.IEND, data: [])
        return writer.bytes
    }

    /// An fcTL chunk's data: full canvas, dispose NONE, blend SOURCE, the duration as a fraction.
    static func frameControl(_ sequence: UInt32, _ frame: Frame) -> [UInt8] {
        var data: [UInt8] = []
        data.appendUInt32BE(sequence)
        data.appendUInt32BE(UInt32(frame.pixels.width))
        data.appendUInt32BE(UInt32(frame.pixels.height))
        data.appendUInt32BE(0)
        data.appendUInt32BE(0)
        let (numerator, denominator) = delayFraction(frame.duration)
        data.appendUInt16BE(numerator)
        data.appendUInt16BE(denominator)
        data.append(APNGFrameControl.Dispose.none.rawValue)
        data.append(APNGFrameControl.Blend.source.rawValue)
        return data
    }

    /// A duration in seconds as `delay_num / delay_den`: the fraction with both terms at most
    /// 65535 nearest to it (so every fraction an APNG can store, 1/3 s included, comes back
    /// exactly), reduced (70 ms is 7/100). Negative and non-finite durations are 0/1; durations
    /// beyond 65535 s are 65535/1.
    static func delayFraction(_ seconds: Double) -> (UInt16, UInt16) {
        let value = seconds.isFinite ? max(0, seconds) : 0
        let limit = UInt64(UInt16.max)
        guard value < Double(limit) else { return (UInt16.max, 1) }
        // Continued-fraction convergents of `value`; the last one within the limits is the best
        // approximation with a denominator that small (or a semiconvergent is, checked below).
        var (p0, q0, p1, q1): (UInt64, UInt64, UInt64, UInt64) = (0, 1, 1, 0)
        var remainder = value
        for _ in 0..<40 {
            let whole = remainder.rounded(.down)
            guard whole < Double(limit) + 1 else { break }
            let a = UInt64(whole)
            let p2 = a * p1 + p0, q2 = a * q1 + q0
            if p2 > limit || q2 > limit {
                // The largest semiconvergent within the limits, if it is closer than p1/q1.
                let steps = min(q1 == 0 ? a : (limit - q0) / q1, p1 == 0 ? a : (limit - p0) / p1)
                let (ps, qs) = (steps * p1 + p0, steps * q1 + q0)
                if qs > 0, steps * 2 >= a,
                    abs(Double(ps) / Double(qs) - value) < abs(Double(p1) / Double(max(1, q1)) - value)
                {
                    return (UInt16(ps), UInt16(qs))
                }
                break
            }
            (p0, q0, p1, q1) = (p1, q1, p2, q2)
            let fraction = remainder - whole
            if fraction < 1e-12 || abs(Double(p1) / Double(q1) - value) < 1e-12 { break }
            remainder = 1 / fraction
        }
        guard q1 > 0 else { return (0, 1) }
        return (UInt16(p1), UInt16(q1))
    }
}
