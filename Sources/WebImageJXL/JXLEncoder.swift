import CJXL
import Foundation
import WebImage

/// Encodes RGBA as JPEG XL with libjxl's encoder (single-threaded, as `cjxl --num_threads=1`).
enum JXLEncoder {
    /// The largest side libjxl's default codestream level (5) stores.
    static let maxDimension = 1 << 18

    /// One still image: RGB when opaque, else RGBA with an 8-bit alpha channel. The coder always
    /// stores orientation 1 (encoders apply orientation first); tests store others.
    static func encode(
        _ pixels: PixelBuffer, profile: ColorProfile? = nil, metadata: ImageMetadata? = nil, options: ImageEncodingOptions,
        storedOrientation: ImageOrientation = .up
    ) throws -> Data {
        let straight = pixels.unpremultiplied()
        let alpha = !straight.isOpaque
        return try withEncoder(
            size: straight.size, alpha: alpha, animation: nil, orientation: storedOrientation, profile: profile,
            metadata: metadata, options: options
        ) { encoder, settings in
            try add(straight, alpha: alpha, to: settings, encoder: encoder)
        }
    }

    /// An animation: every frame as RGBA on the canvas, durations in milliseconds.
    static func encode(
        _ animation: any AnimatedImageSource, profile: ColorProfile? = nil, metadata: ImageMetadata? = nil,
        options: ImageEncodingOptions
    ) throws -> Data {
        let canvas = animation.canvasSize
        return try withEncoder(
            size: canvas, alpha: true, animation: animation.loopCount, orientation: .up, profile: profile, metadata: metadata,
            options: options
        ) { encoder, settings in
            for index in 0..<animation.frameCount {
                let frame = try animation.frame(at: index)
                let pixels = frame.pixels.size == canvas ? frame.pixels : Resampler.resample(frame.pixels, to: canvas)
                var header = JxlFrameHeader()
                jxl.JxlEncoderInitFrameHeader(&header)
                // The played duration, never 0: a JPEG XL frame of duration 0 is a layer that the
                // decoder blends into the next frame, not a frame of its own.
                header.duration = milliseconds(frame.duration)
                guard jxl.JxlEncoderSetFrameHeader(settings, &header) == JXL_ENC_SUCCESS else {
                    throw failure(encoder, "setting frame \(index)'s header")
                }
                try add(pixels.unpremultiplied(), alpha: true, to: settings, encoder: encoder)
            }
        }
    }

    /// `seconds` in whole milliseconds (the animation's tick), within a frame header's range.
    static func milliseconds(_ seconds: Double) -> UInt32 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let ms = (seconds * 1000).rounded()
        return ms >= Double(UInt32.max) ? UInt32.max : UInt32(ms)
    }

    private static func withEncoder(
        size: PixelSize, alpha: Bool, animation loopCount: Int?, orientation: ImageOrientation, profile: ColorProfile?,
        metadata: ImageMetadata?, options: ImageEncodingOptions,
        addFrames: (OpaquePointer, OpaquePointer) throws -> Void
    ) throws -> Data {
        guard size.width > 0, size.height > 0, size.width <= maxDimension, size.height <= maxDimension else {
            throw WebImageError(.encodingFailed, "JPEG XL cannot store a \(size) image (1…\(maxDimension) pixels per side)")
        }
        guard let encoder = try JXLLibrary.require().JxlEncoderCreate(nil) else {
            throw WebImageError(.encodingFailed, "libjxl could not create an encoder")
        }
        defer { jxl.JxlEncoderDestroy(encoder) }

        var info = JxlBasicInfo()
        jxl.JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(size.width)
        info.ysize = UInt32(size.height)
        info.bits_per_sample = 8
        info.exponent_bits_per_sample = 0
        info.num_color_channels = 3
        info.num_extra_channels = alpha ? 1 : 0
        info.alpha_bits = alpha ? 8 : 0
        info.alpha_exponent_bits = 0
        info.alpha_premultiplied = JXL_FALSE
        info.orientation = JxlOrientation(rawValue: UInt32(orientation.rawValue))
        // Lossless keeps the samples as given; lossy works in XYB.
        info.uses_original_profile = options.lossless ? JXL_TRUE : JXL_FALSE
        if let loopCount {
            info.have_animation = JXL_TRUE
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: max(0, loopCount))
        }
        guard jxl.JxlEncoderSetBasicInfo(encoder, &info) == JXL_ENC_SUCCESS else {
            throw failure(encoder, "setting the basic info")
        }
        try setColorSpace(profile, of: encoder)
        if let metadata { try addBoxes(metadata, to: encoder) }
        guard let settings = jxl.JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw failure(encoder, "creating the frame settings")
        }
        let configured =
            options.lossless
            ? jxl.JxlEncoderSetFrameLossless(settings, JXL_TRUE)
            : jxl.JxlEncoderSetFrameDistance(settings, JXLCoder.distance(forQuality: options.quality))
        guard configured == JXL_ENC_SUCCESS else { throw failure(encoder, "setting the quality") }

        try addFrames(encoder, settings)
        jxl.JxlEncoderCloseInput(encoder)
        return try drain(encoder)
    }

    /// Says what the pixels mean: `profile` (a lossless file keeps the pixels in it; a lossy one
    /// is coded in XYB from it and names it as the original space), else sRGB.
    private static func setColorSpace(_ profile: ColorProfile?, of encoder: OpaquePointer) throws {
        if let profile {
            let bytes = [UInt8](profile.data)
            guard jxl.JxlEncoderSetICCProfile(encoder, bytes, bytes.count) == JXL_ENC_SUCCESS else {
                throw failure(encoder, "setting the ICC profile")
            }
            return
        }
        var color = JxlColorEncoding()
        jxl.JxlColorEncodingSetToSRGB(&color, JXL_FALSE)
        guard jxl.JxlEncoderSetColorEncoding(encoder, &color) == JXL_ENC_SUCCESS else {
            throw failure(encoder, "setting the colour encoding")
        }
    }

    /// Writes `metadata` as an `Exif` box (its TIFF structure after a 4-byte offset of 0) and an
    /// `xml ` box (the XMP packet), uncompressed, before the codestream. JPEG XL has no box for
    /// IPTC-IIM records: they are not written.
    private static func addBoxes(_ metadata: ImageMetadata, to encoder: OpaquePointer) throws {
        let boxes = [("Exif", metadata.exif.map { Data(count: 4) + $0 }), ("xml ", metadata.xmp)].compactMap { type, body in
            body.map { (type, [UInt8]($0)) }
        }
        guard !boxes.isEmpty else { return }
        guard jxl.JxlEncoderUseContainer(encoder, JXL_TRUE) == JXL_ENC_SUCCESS,
            jxl.JxlEncoderUseBoxes(encoder) == JXL_ENC_SUCCESS
        else { throw failure(encoder, "enabling metadata boxes") }
        for (type, body) in boxes {
            let status = type.withCString { name in jxl.JxlEncoderAddBox(encoder, name, body, body.count, JXL_FALSE) }
            guard status == JXL_ENC_SUCCESS else { throw failure(encoder, "adding the \(type) box") }
        }
    }

    private static func add(_ pixels: PixelBuffer, alpha: Bool, to settings: OpaquePointer, encoder: OpaquePointer) throws {
        var format = JxlPixelFormat(
            num_channels: alpha ? 4 : 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let samples: [UInt8]
        if alpha {
            samples = pixels.bytes
        } else {
            let count = pixels.width * pixels.height
            samples = [UInt8](unsafeUninitializedCapacity: count * 3) { rgb, initialized in
                pixels.bytes.withUnsafeBufferPointer { rgba in
                    for i in 0..<count {
                        rgb[3 * i] = rgba[4 * i]
                        rgb[3 * i + 1] = rgba[4 * i + 1]
                        rgb[3 * i + 2] = rgba[4 * i + 2]
                    }
                }
                initialized = count * 3
            }
        }
        let status = samples.withUnsafeBytes { jxl.JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }
        guard status == JXL_ENC_SUCCESS else { throw failure(encoder, "adding a frame") }
    }

    /// Runs the encoder to the end, growing the output as libjxl asks.
    private static func drain(_ encoder: OpaquePointer) throws -> Data {
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var written = 0
        while true {
            let status: JxlEncoderStatus = output.withUnsafeMutableBufferPointer { buffer in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress.map { $0 + written }
                var available = buffer.count - written
                let status = jxl.JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
                return status
            }
            switch status {
            case JXL_ENC_SUCCESS:
                return Data(output[0..<written])
            case JXL_ENC_NEED_MORE_OUTPUT:
                output.append(contentsOf: repeatElement(0, count: output.count))
            default:
                throw failure(encoder, "encoding")
            }
        }
    }

    private static func failure(_ encoder: OpaquePointer, _ stage: String) -> WebImageError {
        WebImageError(.encodingFailed, "libjxl failed \(stage) (error \(jxl.JxlEncoderGetError(encoder).rawValue))")
    }
}
