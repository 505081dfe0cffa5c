import Foundation

/// How a final-image stage waits on the shared work it depends on: the download+decode of the
/// original, or the result of its transformer chain's prefix.
extension ImageManager {
    /// Whether `request` may share its stages with other requests: coalescing is on and the request
    /// carries no objects or closures (which cannot be compared).
    func sharesWork(_ request: ImageRequest) -> Bool {
        configuration.isCoalescingEnabled && !request.hasCustomComponents
    }

    /// Subscribes `final` to the job of `registry` for `key` (a new job running `body` when none
    /// runs, or one of its own when `shared` is false), forwards the job's progress and previews to
    /// `final`, lets `final`'s priority follow, and returns the job's first value.
    ///
    /// Cancelling the waiting task leaves the job; the job stops when its last subscriber leaves.
    func awaitDependency<Key: Hashable & Sendable, Value: Sendable>(
        _ registry: JobRegistry<Key, Value>, key: Key, shared: Bool, for final: SharedJob<ImageResponse>,
        describing url: URL, body: @escaping @Sendable (SharedJob<Value>) async throws -> Void
    ) async throws -> Value {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream()
        let sink: SharedJob<Value>.Sink = { event in
            switch event {
            case .progress(let progress): final.send(.progress(progress))
            case .preview(let preview): final.send(.preview(preview))
            case .value(let value): continuation.yield(value)
            case .finished(let error):
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
            }
        }
        let (job, id): (SharedJob<Value>, Int)
        if shared {
            (job, id) = registry.join(key, priority: final.priority, sink: sink, body: body)
        } else {
            (job, id) = registry.solo(priority: final.priority, sink: sink, body: body)
        }
        if final.priority > job.priority { job.setPriority(final.priority) }
        final.onPriorityChange { job.setPriority($0) }
        defer { final.onPriorityChange(nil) }
        return try await withTaskCancellationHandler {
            for try await value in stream { return value }
            throw WebImageError(.cancelled, "the work for \(url.absoluteString) ended without an image")
        } onCancel: {
            job.unsubscribe(id)
        }
    }
}
