import AsyncHTTPClient
import Foundation
import WebImage

/// What makes two loads the same download: the URL, the validators when revalidating (a
/// conditional request must not answer a plain one with a 304), whether the certificate is
/// verified (a strict caller must never get bytes from an unverified server) and whether
/// cookies are sent and stored.
struct DownloadKey: Hashable, Sendable {
    var url: String
    var revalidation: HTTPCacheMetadata?
    var allowsInvalidCertificates = false
    var handlesCookies = false

    init(_ request: ImageLoad.Request) {
        url = request.url.absoluteString
        revalidation = request.revalidation
        allowsInvalidCertificates = request.allowsInvalidCertificates
        handlesCookies = request.handlesCookies
    }
}

/// Everything an ``HTTPImageLoader`` guards with its one lock: the queue state machine, each
/// caller's event continuation, and each download's progress and body so far.
struct LoaderState: Sendable {
    struct Subscriber: Sendable {
        var continuation: AsyncThrowingStream<ImageLoad.Event, any Error>.Continuation
        var wantsPartialData: Bool
    }

    struct Flow: Sendable {
        var request: ImageLoad.Request
        var response: ImageLoad.Response?
        var data = Data()
        var throttle: ProgressReportThrottle
        var task: Task<Void, Never>?
        var stopRequested = false
        /// False when a decryptor is set: only the whole body can be decrypted.
        var allowsPartialData: Bool

        func progress(partial: Bool) -> ImageLoad.Progress {
            ImageLoad.Progress(
                receivedBytes: data.count, expectedBytes: response?.expectedContentLength,
                partialData: partial && allowsPartialData ? data : nil)
        }
    }

    var machine: DownloadQueueStateMachine<DownloadKey>
    var subscribers: [Int: Subscriber] = [:]
    var flows: [Int: Flow] = [:]
    var nextToken = 0
    var isShutdown = false
    /// The client without certificate verification, once a request needed it.
    var lenientClient: HTTPClient?

    init(configuration: HTTPImageLoaderConfiguration) {
        machine = DownloadQueueStateMachine(
            maximumConcurrent: configuration.maximumConcurrentDownloads, order: configuration.executionOrder)
    }

    /// Yields `event` to every caller of a download.
    func yield(_ event: ImageLoad.Event, to download: Int) {
        for token in machine.subscribers(of: download) {
            subscribers[token]?.continuation.yield(event)
        }
    }

    /// Yields the current progress to every caller of a download, with the bytes for those who asked.
    func yieldProgress(of download: Int) {
        guard let flow = flows[download] else { return }
        let plain = ImageLoad.Event.progress(flow.progress(partial: false))
        var withData: ImageLoad.Event?
        for token in machine.subscribers(of: download) {
            guard let subscriber = subscribers[token] else { continue }
            if subscriber.wantsPartialData && flow.allowsPartialData {
                if withData == nil { withData = .progress(flow.progress(partial: true)) }
                subscriber.continuation.yield(withData!)
            } else {
                subscriber.continuation.yield(plain)
            }
        }
    }
}
