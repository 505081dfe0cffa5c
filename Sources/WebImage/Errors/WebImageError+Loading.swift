extension WebImageError {
    /// The typed details of a failed download, carried as a ``WebImageError``'s `underlying` error.
    public struct DownloadDetails: Error, Sendable, Hashable {
        /// The HTTP status of the response, when there was one.
        public var statusCode: Int?
        /// The response's `Content-Type`, when there was one.
        public var contentType: String?
        /// The response head, when one arrived (for `cacheNotModified`, its fresh `Date`/`Cache-Control`).
        public var response: ImageLoad.Response?

        /// Details from explicit values.
        public init(statusCode: Int? = nil, contentType: String? = nil, response: ImageLoad.Response? = nil) {
            self.statusCode = statusCode
            self.contentType = contentType
            self.response = response
        }
    }
}

extension WebImageError.DownloadDetails: CustomStringConvertible {
    /// A short account for error messages: `HTTP 404, text/html` (the headers stay in ``response``).
    public var description: String {
        var parts: [String] = []
        if let statusCode { parts.append("HTTP \(statusCode)") }
        if let contentType { parts.append(contentType) }
        return parts.isEmpty ? "no response" : parts.joined(separator: ", ")
    }
}

extension WebImageError.Code {
    /// The transfer failed below HTTP: connection refused, DNS failure, connection lost mid-body.
    public static let networkError = WebImageError.Code(rawValue: "networkError")
    /// A local file could not be opened or read.
    public static let fileUnreadable = WebImageError.Code(rawValue: "fileUnreadable")
    /// A local file could not be written (the message names the path).
    public static let fileUnwritable = WebImageError.Code(rawValue: "fileUnwritable")
    /// A URL (given directly or reached by a redirect) was refused by the loader's URL policy.
    public static let urlRefused = WebImageError.Code(rawValue: "urlRefused")
    /// A request's ``ImageDataProviding`` source failed to give its bytes (its own error is the
    /// ``WebImageError/underlying`` one).
    public static let dataProviderFailed = WebImageError.Code(rawValue: "dataProviderFailed")
}

extension WebImageError {
    /// The typed download details, when the error carries them.
    public var downloadDetails: WebImageError.DownloadDetails? { underlying as? WebImageError.DownloadDetails }

    /// The HTTP status of a failed download, when known.
    ///
    /// ```swift
    /// catch let error as WebImageError where error.code == .invalidDownloadStatusCode {
    ///     print(error.statusCode ?? 0)    // 404
    /// }
    /// ```
    public var statusCode: Int? { downloadDetails?.statusCode }

    /// The `Content-Type` of a failed download, when known.
    public var contentType: String? { downloadDetails?.contentType }

    /// An `invalidDownloadStatusCode` error naming and carrying `status`.
    public static func invalidStatus(_ status: Int, response: ImageLoad.Response) -> WebImageError {
        WebImageError(
            .invalidDownloadStatusCode, "download of \(response.url.absoluteString) answered HTTP \(status)",
            underlying: WebImageError.DownloadDetails(statusCode: status, contentType: response.contentType, response: response))
    }

    /// An `invalidDownloadContentType` error naming and carrying the content type.
    public static func invalidContentType(_ contentType: String?, response: ImageLoad.Response) -> WebImageError {
        WebImageError(
            .invalidDownloadContentType,
            "download of \(response.url.absoluteString) has unacceptable content type \(contentType ?? "(none)")",
            underlying: WebImageError.DownloadDetails(statusCode: response.statusCode, contentType: contentType, response: response))
    }

    /// A `cacheNotModified` error carrying the `304` response head.
    public static func notModified(response: ImageLoad.Response) -> WebImageError {
        WebImageError(
            .cacheNotModified, "\(response.url.absoluteString) is not modified (HTTP 304)",
            underlying: WebImageError.DownloadDetails(statusCode: response.statusCode, contentType: response.contentType, response: response))
    }
}
