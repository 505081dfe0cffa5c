public import Foundation
public import WebImage
import Synchronization

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
    case finished(URL, ImageLoadMetrics)
}

/// Fans events out to every live subscriber stream.
final class EventBroadcaster<Event: Sendable>: Sendable {
    private let subscribers = Mutex<(next: Int, continuations: [Int: AsyncStream<Event>.Continuation])>((0, [:]))

    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = subscribers.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.continuations.values) }) {
            continuation.yield(event)
        }
    }

    func finish() {
        for continuation in subscribers.withLock({ Array($0.continuations.values) }) {
            continuation.finish()
        }
    }
}
