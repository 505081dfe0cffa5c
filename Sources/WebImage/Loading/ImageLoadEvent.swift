public import Foundation

extension ImageLoad {
    /// One step of a load, as ``ImageLoad/Task/events`` delivers it.
    ///
    /// A load yields ``response(_:)`` once the response head is known, ``progress(_:)`` as bytes
    /// arrive (the last progress always reports every byte), then ``finished(_:)`` and ends. A failure
    /// ends the stream by throwing a ``WebImageError``; a retried failure is ``retrying(_:)`` instead,
    /// and the next attempt's events follow.
    public enum Event: Sendable {
        /// The response head arrived (status, headers, final URL).
        case response(ImageLoad.Response)
        /// More bytes arrived.
        case progress(ImageLoad.Progress)
        /// The whole body, after any decryptor, with the response and metrics.
        case finished(ImageLoad.Result)
        /// An attempt failed and the download will be tried again after a wait (the loader's
        /// ``RetryStrategy`` said so); the bytes so far are dropped, and the next attempt's
        /// ``response(_:)`` and ``progress(_:)`` follow.
        case retrying(ImageLoad.Retry)
    }
}

extension ImageLoad {
    /// A retry a loader is about to make, as ``ImageLoad/Event/retrying(_:)`` announces it.
    public struct Retry: Sendable {
        /// How many attempts have failed so far: 1 before the first retry.
        public var attempt: Int
        /// How long the loader waits before the next attempt.
        public var delay: Duration
        /// Why the last attempt failed.
        public var error: WebImageError

        /// A retry from explicit values.
        public init(attempt: Int, delay: Duration, error: WebImageError) {
            self.attempt = attempt
            self.delay = delay
            self.error = error
        }
    }
}

extension ImageLoad {
    /// How far a load has come.
    public struct Progress: Sendable, Hashable {
        /// Bytes received so far.
        public var receivedBytes: Int
        /// The expected total, when the response declared one.
        public var expectedBytes: Int?
        /// Every byte received so far, for progressive decoding: only when the request asked for it
        /// (``ImageLoad/Request/reportsPartialData``), else nil.
        public var partialData: Data?

        /// A progress value.
        public init(receivedBytes: Int, expectedBytes: Int?, partialData: Data? = nil) {
            self.receivedBytes = receivedBytes
            self.expectedBytes = expectedBytes
            self.partialData = partialData
        }

        /// `receivedBytes / expectedBytes` in 0...1, when the total is known.
        public var fractionCompleted: Double? {
            guard let expectedBytes, expectedBytes > 0 else { return nil }
            return min(1, Double(receivedBytes) / Double(expectedBytes))
        }
    }
}

extension ImageLoad {
    /// The outcome of a successful load.
    public struct Result: Sendable {
        /// The body, after the decryptor if one was set.
        public var data: Data
        /// The response it came with.
        public var response: ImageLoad.Response
        /// Byte count and timings of the transfer.
        public var metrics: ImageLoad.Metrics

        /// A result.
        public init(data: Data, response: ImageLoad.Response, metrics: ImageLoad.Metrics) {
            self.data = data
            self.response = response
            self.metrics = metrics
        }
    }
}

extension ImageLoad {
    /// Per-download measurements.
    public struct Metrics: Sendable, Hashable {
        /// Body bytes received (before the decryptor).
        public var receivedBytes: Int
        /// From the start of the transfer to the response head, when one arrived.
        public var timeToFirstByte: Duration?
        /// From the start of the transfer to its end.
        public var totalDuration: Duration
        /// Redirects followed.
        public var redirectCount: Int

        /// Metrics from explicit values.
        public init(receivedBytes: Int, timeToFirstByte: Duration?, totalDuration: Duration, redirectCount: Int = 0) {
            self.receivedBytes = receivedBytes
            self.timeToFirstByte = timeToFirstByte
            self.totalDuration = totalDuration
            self.redirectCount = redirectCount
        }
    }
}
