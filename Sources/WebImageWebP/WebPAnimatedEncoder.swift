import CWebP
import Foundation
import WebImage

/// Encodes an animation as an animated WebP with `WebPAnimEncoder`.
///
/// Frame timestamps are the running sum of the frames' stored durations
/// (``AnimatedImageSource/storedDuration(at:)``), rounded to milliseconds, so a 0 ms frame stays 0
/// and a delay that plays as stored is never rounded into the 100 ms zone of ``FrameDurationRule``
/// (10.4 ms becomes 11 ms); the
/// `ANIM` loop count is the animation's ``AnimatedImageSource/loopCount`` (0 = forever, clamped to
/// 65535). libwebp merges a frame identical to the one before it into that frame's duration, so
/// such frames do not survive a round trip as separate frames.
enum WebPAnimatedEncoder {
    /// The longest frame duration a WebP `ANMF` chunk can store, in milliseconds.
    static let maxDurationMilliseconds = 0xFF_FFFF

    static func encode(_ animation: any AnimatedImageSource, options: ImageEncodingOptions) throws -> Data {
        let canvas = animation.canvasSize
        guard canvas.width > 0, canvas.height > 0, canvas.width <= WebPStillEncoder.maxDimension,
            canvas.height <= WebPStillEncoder.maxDimension
        else {
            throw WebImageError(.encodingFailed, "WebP cannot store a \(canvas) animation")
        }
        var config = try WebPStillEncoder.makeConfig(options)
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp version mismatch (WebPAnimEncoderOptionsInit)")
        }
        encoderOptions.anim_params.loop_count = Int32(min(max(animation.loopCount, 0), 65535))
        encoderOptions.anim_params.bgcolor = 0  // transparent; decoders ignore it anyway.
        guard let encoder = WebPAnimEncoderNew(Int32(canvas.width), Int32(canvas.height), &encoderOptions) else {
            throw WebImageError(.encodingFailed, "WebPAnimEncoderNew failed for a \(canvas) canvas")
        }
        defer { WebPAnimEncoderDelete(encoder) }

        var timestamp = 0
        for index in 0..<animation.frameCount {
            let frame = try animation.frame(at: index)
            let pixels = frame.pixels.size == canvas ? frame.pixels : Resampler.resample(frame.pixels, to: canvas)
            var picture = try WebPStillEncoder.makePicture(pixels, config: config)
            let added = WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config)
            WebPPictureFree(&picture)
            guard added != 0 else { throw failure(encoder, "adding frame \(index)") }
            timestamp = timestamp &+ milliseconds(animation.storedDuration(at: index))
            guard timestamp <= Int(Int32.max) else {
                throw WebImageError(.encodingFailed, "WebP animation is longer than \(Int32.max) ms")
            }
        }
        // A final empty frame fixes the last frame's duration.
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw failure(encoder, "finishing")
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw failure(encoder, "assembling")
        }
        return Data(bytes: bytes, count: output.size)
    }

    /// `seconds` in whole milliseconds (0 stays 0: libwebp takes non-decreasing timestamps), at
    /// most what an `ANMF` chunk stores, and at least 11 when the duration plays as stored.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let ms = (seconds * 1000).rounded()
        if ms >= Double(maxDurationMilliseconds) { return maxDurationMilliseconds }
        return FrameDurationRule.isReplaced(seconds) ? Int(ms) : max(11, Int(ms))
    }

    private static func failure(_ encoder: OpaquePointer, _ stage: String) -> WebImageError {
        let reason = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return WebImageError(.encodingFailed, "WebPAnimEncoder failed \(stage): \(reason)")
    }
}
