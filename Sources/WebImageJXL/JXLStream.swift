import CJXL
import Foundation
import WebImage

/// libjxl's streaming decoder over a whole file, stepped event by event
/// (`JxlDecoderSubscribeEvents`): basic info, then each frame's header and, when pixels are
/// wanted, its pixels.
///
/// The decoder keeps the stored orientation (`JxlDecoderSetKeepOrientation`: orientation is
/// carried, never applied), un-premultiplies alpha, asks for sRGB output where the codestream
/// lets it choose (XYB), and composites animation frames onto the canvas (coalescing, libjxl's
/// default). Single-threaded, as `djxl --num_threads=1`. Not thread-safe.
final class JXLStream {
    private let bytes: OwnedBytes
    private let decoder: OpaquePointer
    private let wantsPixels: Bool
    /// The basic info, once read.
    private(set) var info: JxlBasicInfo?
    /// The colour profile the pixels come out in, when it is not sRGB.
    private(set) var colorProfile: ColorProfile?
    /// The profile the image was encoded from, when it is not sRGB (a lossy file's pixels come out
    /// converted to sRGB, but the file still names its original space).
    private(set) var originalProfile: ColorProfile?
    /// RGBA, 8 bits a channel, rows packed.
    private var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)

    /// A decoder over `bytes`; with `wantsPixels` false it walks frame headers without decoding
    /// any pixels (counting frames and durations).
    init(bytes: OwnedBytes, wantsPixels: Bool) throws {
        guard let decoder = try JXLLibrary.require().JxlDecoderCreate(nil) else {
            throw WebImageError(.decodingFailed, "libjxl could not create a decoder")
        }
        self.bytes = bytes
        self.decoder = decoder
        self.wantsPixels = wantsPixels
        var events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
        if wantsPixels { events |= JXL_DEC_FULL_IMAGE.rawValue }
        guard jxl.JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
            jxl.JxlDecoderSetKeepOrientation(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
            jxl.JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == JXL_DEC_SUCCESS
        else {
            jxl.JxlDecoderDestroy(decoder)
            throw WebImageError(.decodingFailed, "libjxl rejected the decoder settings")
        }
        try giveInput()
    }

    deinit { jxl.JxlDecoderDestroy(decoder) }

    private func giveInput() throws {
        let base = bytes.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard jxl.JxlDecoderSetInput(decoder, base, bytes.buffer.count) == JXL_DEC_SUCCESS else {
            throw WebImageError(.decodingFailed, "libjxl refused the input")
        }
        jxl.JxlDecoderCloseInput(decoder)
    }

    /// Skips the next `count` frames without emitting them. Call after ``readInfo()``: libjxl 0.7
    /// loses a skip requested before the basic info.
    func skipFrames(_ count: Int) {
        if count > 0 { jxl.JxlDecoderSkipFrames(decoder, count) }
    }

    /// Runs the decoder to the next event this type stops at.
    private func process() throws -> JxlDecoderStatus {
        while true {
            let status = jxl.JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                var basic = JxlBasicInfo()
                guard jxl.JxlDecoderGetBasicInfo(decoder, &basic) == JXL_DEC_SUCCESS else {
                    throw WebImageError.badData("JPEG XL basic info is unreadable")
                }
                info = basic
                return status
            case JXL_DEC_COLOR_ENCODING:
                originalProfile = profile(JXL_COLOR_PROFILE_TARGET_ORIGINAL)
                // Only XYB (lossy) images let the decoder choose; others keep their own space.
                var srgb = JxlColorEncoding()
                jxl.JxlColorEncodingSetToSRGB(&srgb, (info?.num_color_channels ?? 3) == 1 ? JXL_TRUE : JXL_FALSE)
                _ = jxl.JxlDecoderSetPreferredColorProfile(decoder, &srgb)
                colorProfile = profile(JXL_COLOR_PROFILE_TARGET_DATA)
            case JXL_DEC_ERROR:
                throw WebImageError.badData("JPEG XL data is corrupt (libjxl failed to decode it)")
            case JXL_DEC_NEED_MORE_INPUT:
                throw WebImageError.badData("JPEG XL data is truncated")
            default:
                return status
            }
        }
    }

    /// The profile of the pixels the decoder writes (`target` data) or of the image as encoded
    /// (`target` original): nil when that is sRGB (the data of every lossy file, which libjxl
    /// converts to the preferred sRGB), else its ICC profile (a lossless file keeps the space it
    /// was encoded in).
    private func profile(_ target: JxlColorProfileTarget) -> ColorProfile? {
        var encoding = JxlColorEncoding()
        if jxl.JxlDecoderGetColorAsEncodedProfile(decoder, nil, target, &encoding) == JXL_DEC_SUCCESS,
            encoding.white_point == JXL_WHITE_POINT_D65, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
            encoding.color_space == JXL_COLOR_SPACE_GRAY || encoding.primaries == JXL_PRIMARIES_SRGB
        {
            return nil
        }
        var size = 0
        guard jxl.JxlDecoderGetICCProfileSize(decoder, nil, target, &size) == JXL_DEC_SUCCESS,
            size > 0, size <= ColorProfile.maxByteCount
        else { return nil }
        var icc = [UInt8](repeating: 0, count: size)
        guard jxl.JxlDecoderGetColorAsICCProfile(decoder, nil, target, &icc, size) == JXL_DEC_SUCCESS,
            let profile = ColorProfile(iccData: Data(icc))
        else { return nil }
        let gray = (info?.num_color_channels ?? 3) == 1
        return profile.colorSpace == (gray ? .gray : .rgb) ? profile : nil
    }

    /// Reads up to the basic info (size, alpha, orientation, animation header).
    func readInfo() throws -> JxlBasicInfo {
        if let info { return info }
        while true {
            let status = try process()
            if let info { return info }
            if status == JXL_DEC_SUCCESS { throw WebImageError.badData("JPEG XL data ends before its basic info") }
        }
    }

    /// Advances to the next displayed frame's header; nil at the end of the file.
    func nextFrame() throws -> JxlFrameHeader? {
        while true {
            let status = try process()
            switch status {
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                guard jxl.JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS else {
                    throw WebImageError.badData("JPEG XL frame header is unreadable")
                }
                return header
            case JXL_DEC_SUCCESS:
                return nil
            case JXL_DEC_BASIC_INFO:
                continue
            case JXL_DEC_FULL_IMAGE:
                continue  // the end of a frame that was not asked for
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                // A frame whose header was read but not decoded: skip its pixels.
                _ = jxl.JxlDecoderSkipCurrentFrame(decoder)
            default:
                throw WebImageError(.decodingFailed, "libjxl stopped with status \(status.rawValue)")
            }
        }
    }

    /// Decodes the pixels of the frame whose header ``nextFrame()`` just returned: the whole
    /// canvas, straight RGBA. The canvas was checked against `maxPixelCount` by the caller; it is
    /// checked again here before the buffer is allocated.
    ///
    /// With `wideTransform`, libjxl hands the pixels over as 16-bit samples, a run of one row at
    /// a time (`JxlDecoderSetImageOutCallback`), and each run is converted into the 8-bit buffer
    /// as it comes: no 16-bit image is ever held.
    func decodeFrame(maxPixelCount: Int, wideTransform: (any WideColorTransform)? = nil) throws -> PixelBuffer {
        let basic = try readInfo()
        let size = PixelSize(width: Int(basic.xsize), height: Int(basic.ysize))
        let status = try process()
        guard status == JXL_DEC_NEED_IMAGE_OUT_BUFFER else {
            throw WebImageError.badData("JPEG XL frame has no image data (status \(status.rawValue))")
        }
        if let wideTransform {
            return try decodeWide(size: size, maxPixelCount: maxPixelCount, transform: wideTransform)
        }
        var needed = 0
        guard jxl.JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS,
            needed == size.rgbaByteCount
        else {
            throw WebImageError(.decodingFailed, "libjxl asks for \(needed) bytes for a \(size) RGBA canvas")
        }
        return try PixelBuffer(width: size.width, height: size.height, alphaMode: .straight, maxPixelCount: maxPixelCount) {
            out in
            guard jxl.JxlDecoderSetImageOutBuffer(decoder, &format, out.baseAddress, out.count) == JXL_DEC_SUCCESS else {
                throw WebImageError(.decodingFailed, "libjxl refused the output buffer")
            }
            try finishFrame()
        }
    }

    /// Runs the decoder to the end of the frame (FULL_IMAGE).
    private func finishFrame() throws {
        while true {
            let status = try process()
            if status == JXL_DEC_FULL_IMAGE { return }
            if status == JXL_DEC_SUCCESS { throw WebImageError.badData("JPEG XL data ends inside a frame") }
        }
    }

    /// Where libjxl's 16-bit runs go: the 8-bit canvas and the transform into it.
    private struct WideTarget {
        let destination: UnsafeMutablePointer<UInt8>
        let width: Int
        let height: Int
        let transform: any WideColorTransform
    }

    /// The frame's pixels as 16-bit samples converted run by run into an 8-bit buffer.
    private func decodeWide(size: PixelSize, maxPixelCount: Int, transform: any WideColorTransform) throws -> PixelBuffer {
        var wide = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT16, endianness: JXL_NATIVE_ENDIAN, align: 0)
        return try PixelBuffer(width: size.width, height: size.height, alphaMode: .straight, maxPixelCount: maxPixelCount) {
            out in
            guard let destination = out.baseAddress else { return }
            var target = WideTarget(destination: destination, width: size.width, height: size.height, transform: transform)
            // The decoder has no parallel runner: the callback runs on this thread, inside `finishFrame`.
            try withUnsafeMutablePointer(to: &target) { context in
                let callback: JxlImageOutCallback = { opaque, x, y, count, pixels in
                    guard let opaque, let pixels else { return }
                    let target = opaque.assumingMemoryBound(to: WideTarget.self).pointee
                    guard y < target.height, x < target.width, count <= target.width - x else { return }
                    target.transform.convert(
                        pixels, sourceRowBytes: count * 8, into: target.destination + (y * target.width + x) * 4,
                        destinationRowBytes: count * 4, width: count, rows: 1)
                }
                guard jxl.JxlDecoderSetImageOutCallback(decoder, &wide, callback, context) == JXL_DEC_SUCCESS else {
                    throw WebImageError(.decodingFailed, "libjxl refused the 16-bit output callback")
                }
                try finishFrame()
            }
        }
    }
}

extension JxlBasicInfo {
    /// The stored size (before orientation).
    var pixelSize: PixelSize { PixelSize(width: Int(xsize), height: Int(ysize)) }
    /// The stored orientation (1–8 as EXIF).
    var imageOrientation: ImageOrientation { ImageOrientation(rawValue: Int(orientation.rawValue)) ?? .up }
    var hasAlphaChannel: Bool { alpha_bits > 0 }
    var isAnimated: Bool { have_animation != 0 }

    /// `ticks` of this file's animation clock, in seconds.
    func seconds(ticks: UInt32) -> Double {
        guard animation.tps_numerator > 0 else { return 0 }
        return Double(ticks) * Double(animation.tps_denominator) / Double(animation.tps_numerator)
    }
}
