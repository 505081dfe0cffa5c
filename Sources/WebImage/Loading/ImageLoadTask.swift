extension ImageLoad {
    /// A caller's handle on one load: its events, `cancel()` and priority.
    ///
    /// Each caller gets its own task even when a loader shares one download between callers (the
    /// token of SDWebImage's `SDWebImageDownloadToken`): cancelling it ends this caller's events with
    /// ``WebImageError/Code/cancelled`` and leaves other callers' loads running.
    ///
    /// Consume either ``events`` or ``result()``, once.
    ///
    /// ```swift
    /// let task = loader.load(ImageLoad.Request(url: url))
    /// for try await event in task.events {
    ///     if case .progress(let p) = event { print(p.receivedBytes, p.expectedBytes ?? -1) }
    ///     if case .finished(let result) = event { print(result.data.count) }
    /// }
    /// ```
    public struct Task: Sendable {
        /// The events of this load; the stream throws a ``WebImageError`` on failure.
        public let events: AsyncThrowingStream<ImageLoad.Event, any Error>
        private let onCancel: @Sendable () -> Void
        private let onPriorityChange: @Sendable (ImageLoad.Priority) -> Void

        /// A task over `events`, with what `cancel()` and `setPriority(_:)` do.
        public init(
            events: AsyncThrowingStream<ImageLoad.Event, any Error>,
            onCancel: @escaping @Sendable () -> Void,
            onPriorityChange: @escaping @Sendable (ImageLoad.Priority) -> Void = { _ in }
        ) {
            self.events = events
            self.onCancel = onCancel
            self.onPriorityChange = onPriorityChange
        }

        /// Cancels this caller's load; other callers of a shared download are not affected.
        public func cancel() { onCancel() }

        /// Changes the priority; it reorders the load while it waits in a queue.
        public func setPriority(_ priority: ImageLoad.Priority) { onPriorityChange(priority) }

        /// Waits for the whole body. Cancelling the awaiting task cancels the load.
        public func result() async throws -> ImageLoad.Result {
            try await withTaskCancellationHandler {
                for try await event in events {
                    if case .finished(let result) = event { return result }
                }
                throw WebImageError(.cancelled, "the load ended without a result")
            } onCancel: {
                onCancel()
            }
        }

        /// A task that has already failed with `error`.
        public static func failed(_ error: WebImageError) -> ImageLoad.Task {
            let (stream, continuation) = AsyncThrowingStream<ImageLoad.Event, any Error>.makeStream()
            continuation.finish(throwing: error)
            return ImageLoad.Task(events: stream, onCancel: {})
        }

        /// A task that runs `body` in a new unstructured task; `body` yields response and progress
        /// events through the continuation and returns the result. `cancel()` cancels that task,
        /// which ends the events with ``WebImageError/Code/cancelled``.
        public static func run(
            _ body: @escaping @Sendable (AsyncThrowingStream<ImageLoad.Event, any Error>.Continuation) async throws
                -> ImageLoad.Result
        ) -> ImageLoad.Task {
            let (stream, continuation) = AsyncThrowingStream<ImageLoad.Event, any Error>.makeStream()
            let work = _Concurrency.Task {
                do {
                    let result = try await body(continuation)
                    try _Concurrency.Task.checkCancellation()
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish(throwing: WebImageError(.cancelled, "the load was cancelled"))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { work.cancel() }
            }
            return ImageLoad.Task(events: stream, onCancel: {
                work.cancel()
                continuation.finish(throwing: WebImageError(.cancelled, "the load was cancelled"))
            })
        }
    }
}
