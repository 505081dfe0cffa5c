import CWebP
import Foundation
import WebImage

/// Encodes one RGBA buffer as a still WebP with `WebPEncode`.
enum WebPStillEncoder {
    /// The largest width or height WebP can store.
    static let maxDimension = 16383

    /// `pixels` as lossy or lossless WebP per `options`.
    static func encode(_ pixels: PixelBuffer, options: ImageEncodingOptions) throws -> Data {
        var config = try makeConfig(options)
        var picture = try makePicture(pixels, config: config)
        defer { WebPPictureFree(&picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let ok = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0, let memory = writer.mem else {
            throw WebImageError(.encodingFailed, "WebPEncode failed: \(describe(picture.error_code))")
        }
        return Data(bytes: memory, count: writer.size)
    }

    /// The encoder configuration: quality for lossy, exact lossless (transparent pixels keep
    /// their colour) otherwise.
    static func makeConfig(_ options: ImageEncodingOptions) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp version mismatch (WebPConfigInit)")
        }
        if options.lossless {
            config.lossless = 1
            config.exact = 1
        } else {
            config.quality = Float(options.qualityPercent)
        }
        guard WebPValidateConfig(&config) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp rejected the encoder configuration")
        }
        return config
    }

    /// A picture holding `pixels` (imported from straight RGBA; ARGB for lossless, YUVA for lossy).
    /// The caller frees it with `WebPPictureFree`.
    static func makePicture(_ pixels: PixelBuffer, config: WebPConfig) throws -> WebPPicture {
        guard pixels.width > 0, pixels.height > 0, pixels.width <= maxDimension, pixels.height <= maxDimension else {
            throw WebImageError(
                .encodingFailed, "WebP cannot store \(pixels.size) images (1…\(maxDimension) pixels per side)")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp version mismatch (WebPPictureInit)")
        }
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        picture.use_argb = config.lossless
        let straight = pixels.unpremultiplied()
        let imported = straight.bytes.withUnsafeBufferPointer { rgba in
            WebPPictureImportRGBA(&picture, rgba.baseAddress, Int32(straight.bytesPerRow))
        }
        guard imported != 0 else {
            WebPPictureFree(&picture)
            throw WebImageError(.encodingFailed, "WebPPictureImportRGBA failed: \(describe(picture.error_code))")
        }
        return picture
    }

    /// A readable name for an encoder error code.
    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_NULL_PARAMETER: "missing parameter"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: "bad dimension"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW: "partition overflow"
        case VP8_ENC_ERROR_BAD_WRITE: "write failed"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "file too big"
        case VP8_ENC_ERROR_USER_ABORT: "aborted"
        default: "error \(code.rawValue)"
        }
    }
}
