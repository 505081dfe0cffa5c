import CWebP
import WebImage

extension OwnedBytes {
    /// A `WebPData` view of the bytes, valid while `self` is alive.
    var webpData: WebPData {
        WebPData(bytes: buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), size: buffer.count)
    }
}

/// A `WebPAnimDecoder` positioned on a frame: steps forward sequentially and rewinds with
/// `WebPAnimDecoderReset`. Not thread-safe: ``WebPAnimatedSource`` guards it with a mutex.
///
/// The decoder composites every frame (blend and dispose) onto a canvas that starts transparent;
/// the `ANIM` background colour is ignored, as browsers and the reference decoder do.
final class WebPAnimationCursor {
    private let bytes: OwnedBytes
    private let decoder: OpaquePointer
    /// The index of the frame in `current`, or -1 before the first `GetNext`.
    private(set) var index = -1
    /// The last composited canvas (straight RGBA), if any.
    private(set) var current: PixelBuffer?
    /// How many frames `WebPAnimDecoderGetNext` has decoded.
    private(set) var decodedFrames = 0
    let canvasSize: PixelSize

    /// Creates the decoder; callers check the pixel limit on the canvas before (this allocates
    /// two canvases).
    init(bytes: OwnedBytes) throws {
        self.bytes = bytes
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw WebImageError(.decodingFailed, "libwebp version mismatch (WebPAnimDecoderOptionsInit)")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = bytes.webpData
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw WebImageError.badData("WebP animation container is corrupt")
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.canvas_width > 0, info.canvas_height > 0 else {
            WebPAnimDecoderDelete(decoder)
            throw WebImageError.badData("WebP animation has no canvas")
        }
        self.decoder = decoder
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    /// The composited canvas of frame `target` (straight RGBA), replaying from the start when
    /// `target` lies behind the cursor.
    func frame(at target: Int) throws -> PixelBuffer {
        if target == index, let current { return current }
        if target < index {
            WebPAnimDecoderReset(decoder)
            index = -1
            current = nil
        }
        while index < target {
            var output: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else {
                throw WebImageError.badData("WebP animation ends before frame \(target)")
            }
            guard WebPAnimDecoderGetNext(decoder, &output, &timestamp) != 0, let output else {
                let failed = index + 1
                // Leave the cursor at the start so that a later call replays cleanly.
                WebPAnimDecoderReset(decoder)
                index = -1
                current = nil
                throw WebImageError.badData("WebP animation frame \(failed) is corrupt")
            }
            index += 1
            decodedFrames += 1
            // Only the frame asked for is copied out of libwebp's canvas.
            if index == target {
                let count = canvasSize.rgbaByteCount
                current = PixelBuffer(
                    width: canvasSize.width, height: canvasSize.height, alphaMode: .straight, storage: .shared
                ) {
                    $0.baseAddress?.initialize(from: output, count: count)
                }
            }
        }
        guard let current else { throw WebImageError(.decodingFailed, "WebP frame \(target) was not decoded") }
        return current
    }
}
