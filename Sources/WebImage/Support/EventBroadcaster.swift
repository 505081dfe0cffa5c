import Synchronization

/// Fans events out to every live subscriber stream; one lock check when nobody listens.
///
/// Used by the manager (``ImageManager/Event``) and the HTTP loader (its download events).
///
/// ```swift
/// let broadcaster = EventBroadcaster<Int>()
/// let events = broadcaster.subscribe()
/// broadcaster.send(1)
/// broadcaster.finish()
/// ```
package final class EventBroadcaster<Event: Sendable>: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
    }
    private let state = Mutex(State())

    package init() {}

    /// A new stream of every event sent from now on; it ends at ``finish()`` or when dropped.
    package func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Whether anyone listens (so a sender can skip building an event nobody reads).
    package var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// Sends `event` to every subscriber.
    package func send(_ event: Event) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield(event) }
    }

    /// Ends every subscriber's stream.
    package func finish() {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.finish() }
    }
}
