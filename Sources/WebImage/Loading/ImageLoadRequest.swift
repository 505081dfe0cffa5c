public import Foundation

extension ImageLoad {
    /// What to load and how: the typed form of SDWebImage's downloader options and context.
    ///
    /// Loaders that do not speak HTTP ignore the HTTP-only fields (headers, credential,
    /// revalidation, modifiers, status codes, timeouts, certificates, cookies, retries).
    ///
    /// ```swift
    /// var request = ImageLoad.Request(url: url, priority: .high)
    /// request.headers["X-Client"] = "gallery"
    /// let result = try await loader.load(request).result()
    /// ```
    public struct Request: Sendable {
        /// The URL to load.
        public var url: URL
        /// Where the load goes in the loader's queue.
        public var priority: ImageLoad.Priority
        /// Headers for this request, laid over the loader's global headers.
        public var headers: ImageLoad.Headers = [:]
        /// Whether progress events carry every byte received so far (for progressive decoding).
        public var reportsPartialData = false
        /// Stored validators of a cached entry to revalidate (SDWebImage's `refreshCached`): the
        /// request becomes conditional and a `304` fails with ``WebImageError/Code/cacheNotModified``.
        public var revalidation: HTTPCacheMetadata?
        /// Credentials for this request, over the loader's.
        public var credential: ImageLoad.Credential?
        /// A rewrite of the outgoing request, over the loader's.
        public var requestModifier: ImageRequestModifier?
        /// A rewrite of the response head, over the loader's.
        public var responseModifier: ImageResponseModifier?
        /// A transform of the body, over the loader's.
        public var decryptor: ImageDataDecryptor?
        /// Acceptable HTTP statuses, over the loader's (default `200..<300`).
        public var acceptableStatusCodes: Set<Int>?
        /// Acceptable media types (lowercased, without parameters), over the loader's (default any).
        public var acceptableContentTypes: Set<String>?
        /// The time allowed for the response head and between two reads, over the loader's.
        public var timeout: Duration?
        /// The time allowed for the whole download (every redirect, the head and the whole body),
        /// over the loader's (the HTTP loader's default is 120 s).
        public var totalTimeout: Duration?
        /// Accept any TLS certificate for this request only (self-signed, expired, wrong host), as
        /// SDWebImage's `allowInvalidSSLCertificates`. Off by default; for tests and closed networks.
        /// A lenient request never shares a download with a strict one.
        public var allowsInvalidCertificates = false
        /// Send the cookies the loader's cookie storage holds for the URL and store the cookies the
        /// response sets, as SDWebImage's `handleCookies`. Off by default.
        public var handlesCookies = false
        /// How failed attempts are retried, over the loader's (the HTTP loader's default: none).
        /// The first caller's strategy defines a download that several callers share.
        public var retryStrategy: (any RetryStrategy)?

        /// A request for `url`.
        public init(url: URL, priority: ImageLoad.Priority = .normal) {
            self.url = url
            self.priority = priority
        }
    }
}

extension ImageLoad {
    /// A user name and password for HTTP basic authentication.
    public struct Credential: Sendable, Hashable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// A credential.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// The `Authorization` header value for basic authentication.
        public var basicAuthorization: String {
            "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        }
    }
}
