import CAVIF
import WebImage

/// Turns libavif's result codes into ``WebImageError``s.
enum AVIFStatus {
    /// Throws the error for a failed libavif call while `stage` (nothing for `AVIF_RESULT_OK`).
    static func check(_ result: avifResult, while stage: String) throws {
        if let error = error(for: result, while: stage) { throw error }
    }

    /// The error for `result`, or `nil` for `AVIF_RESULT_OK`.
    static func error(for result: avifResult, while stage: String) -> WebImageError? {
        let name = resultName(result)
        switch result {
        case AVIF_RESULT_OK:
            return nil
        case AVIF_RESULT_OUT_OF_MEMORY:
            return WebImageError(.decodingFailed, "libavif ran out of memory (\(stage))")
        case AVIF_RESULT_NO_CODEC_AVAILABLE:
            return WebImageError(.unsupportedFormat, "libavif has no AV1 codec for this (\(stage))")
        case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_NO_IMAGES_REMAINING:
            return .badData("AVIF data is truncated (\(stage): \(name))")
        default:
            return .badData("AVIF data is corrupt or unsupported (\(stage): \(name))")
        }
    }

    /// The error for a failed libavif call while encoding.
    static func encodingError(for result: avifResult, while stage: String) -> WebImageError? {
        guard result != AVIF_RESULT_OK else { return nil }
        let code: WebImageError.Code = result == AVIF_RESULT_NO_CODEC_AVAILABLE ? .unsupportedFormat : .encodingFailed
        return WebImageError(code, "libavif could not encode (\(stage): \(resultName(result)))")
    }

    /// libavif's name for `result` (its raw value if libavif has none).
    static func resultName(_ result: avifResult) -> String {
        avif.avifResultToString(result).map { String(cString: $0) } ?? "result \(result.rawValue)"
    }
}
