public import Foundation

extension ImageManager {
    /// One stage of a request, as the manager reports it through ``ImageManager/events()``.
    ///
    /// ```swift
    /// for await event in manager.events() where event.stage == .download {
    ///     print(event.url, event.duration, event.succeeded)
    /// }
    /// ```
    public struct Event: Sendable {
        /// The stages of the pipeline.
        public enum Stage: String, Sendable, Hashable, CaseIterable {
            /// A cache query (final or original key).
            case cacheQuery
            /// A download through the loader.
            case download
            /// Decoding bytes into an image.
            case decode
            /// Applying the transformer.
            case transform
            /// Storing into the cache.
            case store
            /// A failed download attempt that the loader tries again: ``Event/duration`` is the
            /// wait before the next attempt, ``Event/attempt`` and ``Event/error`` say which failed
            /// and why.
            case retry
        }

        /// Which stage ran.
        public var stage: Stage
        /// The request's URL; for a `download` or `retry` of a fallback, the fallback URL tried.
        public var url: URL
        /// The cache key the stage worked on.
        public var key: String
        /// How long the stage took.
        public var duration: Duration
        /// Whether it succeeded (a cache query that missed still succeeded; see ``hit``).
        public var succeeded: Bool
        /// For cache queries: whether something was found.
        public var hit: Bool
        /// For retries: how many attempts of the download have failed so far (1 before the first
        /// retry).
        public var attempt: Int?
        /// Why the stage failed, when it did.
        public var error: (any Error)?

        /// An event.
        public init(
            stage: Stage, url: URL, key: String, duration: Duration, succeeded: Bool, hit: Bool = false,
            attempt: Int? = nil, error: (any Error)? = nil
        ) {
            self.stage = stage
            self.url = url
            self.key = key
            self.duration = duration
            self.succeeded = succeeded
            self.hit = hit
            self.attempt = attempt
            self.error = error
        }
    }
}
