extension ImageRequest {
    /// The per-request loader and the hooks of the download (SDWebImage's `imageLoader`,
    /// `downloadRequestModifier`, `downloadResponseModifier` and `downloadDecryptor` context
    /// entries). A request with any of them set shares no job with others: closures cannot be
    /// compared.
    ///
    /// ```swift
    /// var request = ImageRequest(url: url)
    /// request.loading.decryptor = .base64        // the server sends the image as base64 text
    /// ```
    public struct Loading: Sendable {
        /// The loader to use instead of the manager's (`imageLoader`).
        public var loader: (any ImageLoading)?
        /// Rewrites the outgoing HTTP request (`downloadRequestModifier`).
        public var requestModifier: ImageRequestModifier?
        /// Rewrites the response head (`downloadResponseModifier`).
        public var responseModifier: ImageResponseModifier?
        /// Transforms the downloaded bytes before decoding (`downloadDecryptor`).
        public var decryptor: ImageDataDecryptor?
        /// How a failed download is retried, over the loader's (Kingfisher's `retryStrategy`). It
        /// does not keep the request from sharing work: a download shared by several requests is
        /// retried once, by the strategy of the request that started it.
        ///
        /// ```swift
        /// request.loading.retryStrategy = .exponentialBackoff(maximumRetries: 3)
        /// ```
        public var retryStrategy: (any RetryStrategy)?

        /// The defaults: the manager's loader, no hooks.
        public init() {}

        /// Whether anything is set.
        var hasCustomObjects: Bool {
            loader != nil || requestModifier != nil || responseModifier != nil || decryptor != nil
        }
    }
}
