public import Foundation

extension ImageLoad {
    /// The outgoing request as a request modifier sees it: URL, method, headers and body.
    public struct URLRequest: Sendable, Hashable {
        /// Where to send the request.
        public var url: URL
        /// The HTTP method (`GET` unless a modifier changes it).
        public var method: String
        /// Every header that will be sent (the loader's defaults, the global and per-request ones).
        public var headers: ImageLoad.Headers
        /// A request body, if any.
        public var body: Data?

        /// A request.
        public init(url: URL, method: String = "GET", headers: ImageLoad.Headers = [:], body: Data? = nil) {
            self.url = url
            self.method = method
            self.headers = headers
            self.body = body
        }
    }
}

/// Rewrites a request just before it is sent, or cancels it by returning nil
/// (SDWebImage's `SDWebImageDownloaderRequestModifier`).
///
/// ```swift
/// let signed = ImageRequestModifier { request in
///     var request = request
///     request.headers["Authorization"] = "Bearer \(token)"
///     return request
/// }
/// ```
public struct ImageRequestModifier: Sendable {
    /// The rewrite; nil cancels the load with ``WebImageError/Code/cancelled``.
    public let modify: @Sendable (ImageLoad.URLRequest) async throws -> ImageLoad.URLRequest?

    /// A modifier from a closure.
    public init(_ modify: @escaping @Sendable (ImageLoad.URLRequest) async throws -> ImageLoad.URLRequest?) {
        self.modify = modify
    }
}

/// Rewrites a response head (status, headers) before it is checked, or rejects it by returning nil
/// (SDWebImage's `SDWebImageDownloaderResponseModifier`).
///
/// A rejected response fails the load with ``WebImageError/Code/invalidDownloadResponse``.
public struct ImageResponseModifier: Sendable {
    /// The rewrite; nil rejects the response.
    public let modify: @Sendable (ImageLoad.Response) async throws -> ImageLoad.Response?

    /// A modifier from a closure.
    public init(_ modify: @escaping @Sendable (ImageLoad.Response) async throws -> ImageLoad.Response?) {
        self.modify = modify
    }
}

/// Transforms the downloaded bytes before they are decoded (SDWebImage's
/// `SDWebImageDownloaderDecryptor`), for example to undo an encryption or an encoding.
///
/// Partial data for progressive decoding is not offered while a decryptor is set: only the
/// whole body can be decrypted.
///
/// ```swift
/// request.decryptor = .base64     // the server sends the image as base64 text
/// ```
public struct ImageDataDecryptor: Sendable {
    /// The transform; a thrown error fails the load.
    public let decrypt: @Sendable (Data, ImageLoad.Response) throws -> Data

    /// A decryptor from a closure.
    public init(_ decrypt: @escaping @Sendable (Data, ImageLoad.Response) throws -> Data) {
        self.decrypt = decrypt
    }

    /// Applies the transform to a whole body; its own error becomes
    /// ``WebImageError/Code/badImageData`` with the error as the cause (a `WebImageError` passes
    /// through). Every loader calls this, so file://, data: and HTTP decrypt alike.
    ///
    /// ```swift
    /// let bytes = try decryptor.apply(to: body, response: response)
    /// ```
    public func apply(to data: Data, response: ImageLoad.Response) throws -> Data {
        do {
            return try decrypt(data, response)
        } catch {
            throw WebImageError.wrapping(
                error, code: .badImageData, "the decryptor failed on the body of \(response.url.absoluteString.prefix(200))")
        }
    }

    /// Decodes a base64 body (whitespace and line breaks ignored); invalid base64 is
    /// ``WebImageError/Code/badImageData``.
    public static let base64 = ImageDataDecryptor { data, _ in
        guard let decoded = Data(base64Encoded: data, options: .ignoreUnknownCharacters) else {
            throw WebImageError.badData("the response body is not valid base64")
        }
        return decoded
    }
}
