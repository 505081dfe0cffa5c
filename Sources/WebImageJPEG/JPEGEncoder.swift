import CJPEGShim
import Foundation
import WebImage

/// Encodes pixels as a baseline or progressive JPEG through libjpeg.
enum JPEGEncoder {
    /// libjpeg's largest supported dimension.
    static let maxDimension = 65_500

    /// Flattens `pixels` over the background colour and compresses them at the options' quality.
    static func encode(_ pixels: PixelBuffer, options: ImageEncodingOptions) throws -> Data {
        guard pixels.width > 0, pixels.height > 0 else {
            throw WebImageError(.encodingFailed, "JPEG: cannot encode an empty image (\(pixels.size))")
        }
        guard pixels.width <= maxDimension, pixels.height <= maxDimension else {
            throw WebImageError(.encodingFailed, "JPEG: \(pixels.size) exceeds \(maxDimension) pixels per side")
        }
        let opaque = pixels.flattened(over: options.backgroundColor)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = opaque.bytes.withUnsafeBufferPointer { source in
            message.withUnsafeMutableBufferPointer { text in
                webimage_jpeg_encode_rgbx(
                    source.baseAddress, UInt32(opaque.width), UInt32(opaque.height), opaque.bytesPerRow,
                    Int32(max(1, options.qualityPercent)), options.progressive ? 1 : 0, &output, &outputSize, text.baseAddress, text.count)
            }
        }
        defer { webimage_jpeg_free(output) }
        guard status == 0, let output else {
            let text = String(nulTerminated: message)
            throw WebImageError(.encodingFailed, "JPEG: " + (text.isEmpty ? "libjpeg failed" : text))
        }
        return Data(bytes: output, count: outputSize)
    }
}
