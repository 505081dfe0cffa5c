/// The one error type WebImage throws.
///
/// Every failure carries an extensible ``Code``, a human-readable message and, where one exists,
/// the underlying cause. Codes mirror SDWebImage's `SDWebImageError` and add WebImage's own.
///
/// ```swift
/// do { _ = try coders.decode(data) }
/// catch let error as WebImageError where error.code == .tooLarge { print(error.message) }
/// ```
public struct WebImageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as an open set of codes.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The URL is missing or malformed.
        public static let invalidURL = Code(rawValue: "invalidURL")
        /// The bytes are not an image any coder can read, or are corrupt.
        public static let badImageData = Code(rawValue: "badImageData")
        /// A conditional request was answered 304: the cached bytes are still current.
        public static let cacheNotModified = Code(rawValue: "cacheNotModified")
        /// The URL failed before and is blocked by the failed-URL policy.
        public static let blockedURL = Code(rawValue: "blockedURL")
        /// The server answered with a status outside the acceptable range.
        public static let invalidDownloadStatusCode = Code(rawValue: "invalidDownloadStatusCode")
        /// The operation was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The response could not be used (missing, rejected by a response modifier, …).
        public static let invalidDownloadResponse = Code(rawValue: "invalidDownloadResponse")
        /// The response's content type is not acceptable.
        public static let invalidDownloadContentType = Code(rawValue: "invalidDownloadContentType")
        /// The image or response exceeds a configured size or pixel limit.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// No registered coder can decode this format.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// A codec failed while decoding otherwise recognised data.
        public static let decodingFailed = Code(rawValue: "decodingFailed")
        /// A codec failed while encoding.
        public static let encodingFailed = Code(rawValue: "encodingFailed")
        /// The operation took longer than allowed.
        public static let timedOut = Code(rawValue: "timedOut")
        /// Reading or writing a cache failed.
        public static let cacheIO = Code(rawValue: "cacheIO")
    }

    /// What went wrong.
    public var code: Code
    /// A message for people, naming the specifics (sizes, statuses, formats).
    public var message: String
    /// The lower-level error, if any.
    public var underlying: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying { return "\(code): \(message) (\(underlying))" }
        return "\(code): \(message)"
    }
}

extension WebImageError {
    /// A `tooLarge` error for an image whose pixel count exceeds `limit`.
    public static func tooManyPixels(width: Int, height: Int, limit: Int) -> WebImageError {
        WebImageError(.tooLarge, "image is \(width)×\(height) pixels, over the limit of \(limit) pixels")
    }

    /// A `badImageData` error with a message.
    public static func badData(_ message: String) -> WebImageError {
        WebImageError(.badImageData, message)
    }
}
