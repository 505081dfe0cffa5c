import CHEIF
import WebImage

/// Turns libheif's errors into ``WebImageError``s.
enum HEIFStatus {
    /// Throws the error for a failed libheif call while `stage` (nothing for `heif_error_Ok`).
    static func check(_ error: heif_error, while stage: String) throws {
        if let mapped = decodingError(for: error, while: stage) { throw mapped }
    }

    /// The decoding-side error for `error`, or `nil` for `heif_error_Ok`.
    static func decodingError(for error: heif_error, while stage: String) -> WebImageError? {
        if error.code != heif_error_Ok && error.subcode == heif_suberror_Security_limit_exceeded {
            return WebImageError(.tooLarge, "HEIF file exceeds libheif's security limits (\(stage): \(message(of: error)))")
        }
        switch error.code {
        case heif_error_Ok:
            return nil
        case heif_error_Memory_allocation_error:
            return WebImageError(.decodingFailed, "libheif ran out of memory (\(stage): \(message(of: error)))")
        case heif_error_Usage_error:
            return WebImageError(.decodingFailed, "libheif refused the call (\(stage): \(message(of: error)))")
        default:
            // Invalid input, unsupported file type or feature, a codec plugin's error.
            return .badData("HEIF data is corrupt or unsupported (\(stage): \(message(of: error)))")
        }
    }

    /// The encoding-side error for `error`, or `nil` for `heif_error_Ok`.
    static func encodingError(for error: heif_error, while stage: String) -> WebImageError? {
        guard error.code != heif_error_Ok else { return nil }
        return WebImageError(.encodingFailed, "libheif could not encode (\(stage): \(message(of: error)))")
    }

    static func message(of error: heif_error) -> String {
        error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue).\(error.subcode.rawValue)"
    }
}
