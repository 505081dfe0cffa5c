import CSixel
public import WebImage

/// DEC sixel graphics through libsixel: a palette of up to 256 colours chosen from the image
/// (median cut), Floyd–Steinberg dithering, and the sixel bands in a DCS sequence
/// `ESC P q " 1;1;W;H #… ESC \` (7-bit controls).
///
/// Sixel has no alpha: pixels are composited over black first.
///
/// ```swift
/// let sixel = try SixelEncoder.encode(pixels)
/// ```
public enum SixelEncoder {
    /// The sixel sequence that draws `pixels` at the cursor with at most `colors` palette entries
    /// (2...256). Throws `encodingFailed` when libsixel fails.
    public static func encode(_ pixels: PixelBuffer, colors: Int = 256) throws -> String {
        guard pixels.width > 0, pixels.height > 0 else {
            throw WebImageError(.encodingFailed, "sixel: an empty image has nothing to draw")
        }
        let flat = pixels.converted(to: .straight).flattened(over: .black)
        var rgb = [UInt8](repeating: 0, count: flat.width * flat.height * 3)
        for i in 0..<(flat.width * flat.height) {
            rgb[i * 3] = flat.bytes[i * 4]
            rgb[i * 3 + 1] = flat.bytes[i * 4 + 1]
            rgb[i * 3 + 2] = flat.bytes[i * 4 + 2]
        }
        let sink = SixelSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        var output: OpaquePointer?
        var dither: OpaquePointer?
        defer {
            if let output { sixel_output_unref(output) }
            if let dither { sixel_dither_unref(dither) }
        }
        let write: sixel_write_function = { data, size, context in
            guard let data, let context, size > 0 else { return 0 }
            let sink = Unmanaged<SixelSink>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size)))
            }
            return size
        }
        try check(sixel_output_new(&output, write, unmanaged.toOpaque(), nil), "creating the output")
        try check(sixel_dither_new(&dither, Int32(min(256, max(2, colors))), nil), "creating the palette")
        let (width, height) = (Int32(flat.width), Int32(flat.height))
        try rgb.withUnsafeMutableBufferPointer { buffer in
            try check(
                sixel_dither_initialize(
                    dither, buffer.baseAddress, width, height, rgb888, 0, 0, 0),
                "choosing the palette")
        }
        sixel_dither_set_pixelformat(dither, rgb888)
        // sixel_encode dithers in place: it gets its own copy.
        var work = rgb
        try work.withUnsafeMutableBufferPointer { buffer in
            try check(sixel_encode(buffer.baseAddress, width, height, 3, dither, output), "encoding")
        }
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// `SIXEL_PIXELFORMAT_RGB888` (the header's macro is an expression Swift does not import);
    /// the 0s passed beside it are `SIXEL_LARGE_AUTO`, `SIXEL_REP_AUTO` and `SIXEL_QUALITY_AUTO`.
    private static let rgb888: Int32 = 0x03

    private static func check(_ status: SIXELSTATUS, _ step: String) throws {
        guard status & 0x1000 == 0 else {
            throw WebImageError(.encodingFailed, "sixel: libsixel failed \(step) (status \(status))")
        }
    }
}

/// Collects libsixel's output; only touched inside one `encode` call.
private final class SixelSink {
    var bytes: [UInt8] = []
}
