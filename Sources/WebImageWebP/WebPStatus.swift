import CWebP
import WebImage

/// Turns libwebp's decoder status codes into ``WebImageError``s.
enum WebPStatus {
    /// The error for a failed `WebPGetFeatures`/`WebPDecode` call, or `nil` for `VP8_STATUS_OK`.
    static func error(for status: VP8StatusCode, while stage: String) -> WebImageError? {
        switch status {
        case VP8_STATUS_OK:
            return nil
        case VP8_STATUS_NOT_ENOUGH_DATA:
            return .badData("WebP data is truncated (\(stage))")
        case VP8_STATUS_BITSTREAM_ERROR:
            return .badData("WebP bitstream is corrupt (\(stage))")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return .badData("WebP uses an unsupported feature (\(stage))")
        case VP8_STATUS_OUT_OF_MEMORY:
            return WebImageError(.decodingFailed, "libwebp ran out of memory (\(stage))")
        case VP8_STATUS_INVALID_PARAM:
            return WebImageError(.decodingFailed, "libwebp rejected the decoder parameters (\(stage))")
        case VP8_STATUS_SUSPENDED, VP8_STATUS_USER_ABORT:
            return WebImageError(.decodingFailed, "libwebp stopped before the end (\(stage))")
        default:
            return WebImageError(.decodingFailed, "libwebp failed with status \(status.rawValue) (\(stage))")
        }
    }
}
