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

    /// Encodes `frames` (all of one size) looping `loopCount` times (0 = forever).
    static func encode(frameCount: Int, loopCount: Int, compressionLevel: Int, frame: (Int) throws -> Frame) throws
        -> [UInt8]
    {
        guard frameCount > 0 else { throw WebImageError(.encodingFailed, "an APNG needs at least one frame") }
        // First pass: one colour type for every frame (RGB only when all frames are opaque).
        var opaque = true
        var size: PixelSize?
        for index in 0..<frameCount {
            let pixels = try frame(index).pixels
            if let size, size != pixels.size {
                throw WebImageError(.encodingFailed, "APNG frame \(index) is \(pixels.size), not \(size)")
            }
            size = pixels.size
            if opaque && !pixels.isOpaque { opaque = false }
        }

        var writer = PNGChunkWriter()
        writer.appendSignature()
        var sequence: UInt32 = 0
        for index in 0..<frameCount {
            let current = try frame(index)
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

    /// A duration as `delay_num / delay_den`: milliseconds when they fit in 16 bits, else coarser units.
    static func delayFraction(_ seconds: Double) -> (UInt16, UInt16) {
        let value = seconds.isFinite ? max(0, seconds) : 0
        for denominator in [1000.0, 100.0, 10.0, 1.0] {
            let numerator = (value * denominator).rounded()
            if numerator <= Double(UInt16.max) { return (UInt16(numerator), UInt16(denominator)) }
        }
        return (UInt16.max, 1)
    }
}
