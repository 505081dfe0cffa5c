public import Foundation

extension ImageLoad {
    /// What a loader learned about a response before and while its body arrives.
    ///
    /// HTTP responses fill every field; file:// and data: responses leave ``statusCode`` nil.
    public struct Response: Sendable, Hashable {
        /// The URL the bytes came from: the last one after redirects.
        public var url: URL
        /// The HTTP status, or nil for non-HTTP loads.
        public var statusCode: Int?
        /// The response headers (synthesised `Content-Type`/`Content-Length` for non-HTTP loads).
        public var headers: ImageLoad.Headers

        /// A response for `url`.
        public init(url: URL, statusCode: Int? = nil, headers: ImageLoad.Headers = [:]) {
            self.url = url
            self.statusCode = statusCode
            self.headers = headers
        }

        /// The full `Content-Type` value, parameters included.
        public var contentType: String? { headers["Content-Type"] }

        /// The media type alone, lowercased (`image/png` for `Image/PNG; charset=binary`).
        public var mimeType: String? {
            guard let contentType else { return nil }
            let bare = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
            return bare.trimmingCharacters(in: .whitespaces).lowercased()
        }

        /// The declared body length, when known.
        public var expectedContentLength: Int? {
            headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }

        /// The validators and freshness headers, for the disk cache.
        public var cacheMetadata: HTTPCacheMetadata { HTTPCacheMetadata(headers: headers) }
    }
}
