import Foundation

extension WebImageError {
    /// `error` as a ``WebImageError``: a `WebImageError` passes through unchanged, a
    /// `CancellationError` becomes ``Code/cancelled``, and anything else (a custom coder's,
    /// transformer's or hook's own error) becomes `code` with `message`, the error kept as
    /// ``underlying``.
    ///
    /// ```swift
    /// do { image = try transformer.transform(image) } catch {
    ///     throw WebImageError.wrapping(error, code: .transformFailed, "the transformer \(transformer.key) failed")
    /// }
    /// ```
    public static func wrapping(_ error: any Error, code: Code, _ message: @autoclosure () -> String) -> WebImageError {
        if let error = error as? WebImageError { return error }
        if error is CancellationError { return WebImageError(.cancelled, message() + ": cancelled", underlying: error) }
        return WebImageError(code, message(), underlying: error)
    }
}

extension ImageDecoding {
    /// Decodes, turning a foreign error into `decodingFailed` naming this decoder.
    func decodeWrappingErrors(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        do {
            return try decode(data, options: options)
        } catch {
            throw WebImageError.wrapping(error, code: .decodingFailed, "the \(coderName(self)) decoder failed on \(data.count) bytes")
        }
    }
}

/// A coder's name for messages: its ``ImageCoding/name``, else its type.
func coderName(_ coder: Any) -> String {
    if let coding = coder as? any ImageCoding { return "\"\(coding.name)\"" }
    return String(describing: type(of: coder))
}
