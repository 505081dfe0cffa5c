public import Foundation
public import WebImage

/// A loader-wide notification about one download (SDWebImage's download start, receive-response,
/// stop and finish notifications), from ``HTTPImageLoader/events()``.
public enum HTTPDownloadEvent: Sendable {
    /// A download left the queue and its request is being sent.
    case started(URL)
    /// The response head arrived (after the response modifier).
    case receivedResponse(URL, statusCode: Int)
    /// A download ended: error nil on success, ``WebImageError/Code/cancelled`` when its last
    /// caller cancelled it.
    case stopped(URL, error: WebImageError?)
    /// A download finished successfully, with its metrics.
    case finished(URL, ImageLoad.Metrics)
    /// An attempt failed and the download is tried again after `delay`.
    case retrying(URL, ImageLoad.Retry)
    /// An attempt failed that the strategy would retry, but the host's ``WebImage/RetryBudget`` is
    /// spent: the download fails with that error.
    case retryRefused(URL, WebImageError)
}
