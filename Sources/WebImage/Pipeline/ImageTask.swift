import Foundation
import Synchronization

/// A handle on one running request: its progress, previews and responses, ``cancel()`` and
/// ``priority``.
///
/// Requests for the same image share the work behind their tasks; cancelling one task ends only
/// that task (with ``WebImageError/Code/cancelled``) and the shared work stops when the last task
/// is cancelled.
///
/// ```swift
/// let task = manager.task(for: ImageRequest(url: url, options: [.progressiveLoad]))
/// Task { for await preview in task.previews { show(preview) } }
/// Task { for await p in task.progress { print(p.fractionCompleted ?? 0) } }
/// let response = try await task.response
/// ```
public final class ImageTask: Sendable {
    /// The request, after the manager's default options and options processor.
    public let request: ImageRequest
    /// Download progress; ends when the task ends.
    public let progress: AsyncStream<ImageLoad.Progress>
    /// Progressive partial images (``ImageRequest/Options/progressiveLoad``); ends when the task ends.
    public let previews: AsyncStream<Image>
    /// The same previews with the download's progress when each was decoded; ends when the task ends.
    public let previewUpdates: AsyncStream<Preview>
    /// Every response: one, or two for `refreshCached` (the cached image, then the new one).
    /// Throws the request's error.
    public let responses: AsyncThrowingStream<ImageResponse, any Error>

    private struct State {
        var job: (cancel: @Sendable () -> Void, setPriority: @Sendable (ImageLoad.Priority) -> Void)?
        var priority: ImageLoad.Priority
        var last: ImageResponse?
        var outcome: Result<ImageResponse, any Error>?
        var waiters: [CheckedContinuation<ImageResponse, any Error>] = []
        var cancelledEarly = false
    }
    private let state: Mutex<State>
    private let progressContinuation: AsyncStream<ImageLoad.Progress>.Continuation
    private let previewContinuation: AsyncStream<Image>.Continuation
    private let previewUpdateContinuation: AsyncStream<Preview>.Continuation
    private let responseContinuation: AsyncThrowingStream<ImageResponse, any Error>.Continuation

    init(request: ImageRequest) {
        self.request = request
        (progress, progressContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
        (previews, previewContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4))
        (previewUpdates, previewUpdateContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4))
        (responses, responseContinuation) = AsyncThrowingStream.makeStream()
        state = Mutex(State(priority: request.priority))
    }

    /// The last response: waits until the task ends. Throws the request's error, or
    /// ``WebImageError/Code/cancelled``. Cancelling the awaiting task cancels this task.
    nonisolated(nonsending)
    public var response: ImageResponse {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let outcome = state.withLock { state -> Result<ImageResponse, any Error>? in
                        if let outcome = state.outcome { return outcome }
                        state.waiters.append(continuation)
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    /// Cancels this task: it ends with ``WebImageError/Code/cancelled`` unless it has already ended.
    public func cancel() {
        let job = state.withLock { state in
            if state.job == nil { state.cancelledEarly = true }
            return state.job
        }
        job?.cancel()
    }

    /// The download priority; changing it reorders the download while it waits in the loader's
    /// queue (a download shared by several tasks takes the last priority set).
    public var priority: ImageLoad.Priority {
        get { state.withLock { $0.priority } }
        set {
            let job = state.withLock { state in
                state.priority = newValue
                return state.job
            }
            job?.setPriority(newValue)
        }
    }

    /// Whether the task has ended.
    public var isFinished: Bool { state.withLock { $0.outcome != nil } }

    // MARK: Wiring (manager side)

    /// Connects the task to the work it waits on; returns false when it was cancelled before.
    func attach(cancel: @escaping @Sendable () -> Void, setPriority: @escaping @Sendable (ImageLoad.Priority) -> Void) {
        let cancelledEarly = state.withLock { state in
            state.job = (cancel, setPriority)
            return state.cancelledEarly
        }
        if cancelledEarly { cancel() }
    }

    /// Receives one event of the work.
    func receive(_ event: JobEvent<ImageResponse>) {
        switch event {
        case .progress(let value):
            progressContinuation.yield(value)
        case .preview(let preview):
            // Never after the final image: the streams end with the task.
            previewContinuation.yield(preview.image)
            previewUpdateContinuation.yield(preview)
        case .value(let unmodified):
            let response = request.delivering(unmodified)
            let accepted = state.withLock { state in
                guard state.outcome == nil else { return false }
                state.last = response
                return true
            }
            if accepted { responseContinuation.yield(response) }
        case .finished(let error):
            let (outcome, waiters) = state.withLock { state -> (Result<ImageResponse, any Error>?, [CheckedContinuation<ImageResponse, any Error>]) in
                guard state.outcome == nil else { return (nil, []) }
                let outcome: Result<ImageResponse, any Error>
                if let error {
                    outcome = .failure(error)
                } else if let last = state.last {
                    outcome = .success(last)
                } else {
                    outcome = .failure(WebImageError(.cancelled, "the request ended without an image"))
                }
                state.outcome = outcome
                defer { state.waiters.removeAll() }
                return (outcome, state.waiters)
            }
            guard let outcome else { return }
            for waiter in waiters { waiter.resume(with: outcome) }
            progressContinuation.finish()
            previewContinuation.finish()
            previewUpdateContinuation.finish()
            if case .failure(let error) = outcome {
                responseContinuation.finish(throwing: error)
            } else {
                responseContinuation.finish()
            }
        }
    }
}

extension ImageTask {
    /// A progressive preview and how much of the download it was decoded from.
    public struct Preview: Sendable {
        /// The partial image (at the request's thumbnail size, if any).
        public var image: Image
        /// The bytes received when it was decoded.
        public var receivedBytes: Int
        /// The expected length of the download, when known.
        public var expectedBytes: Int?

        /// A preview of `image`, decoded when `progress` had arrived.
        public init(image: Image, progress: ImageLoad.Progress) {
            self.image = image
            receivedBytes = progress.receivedBytes
            expectedBytes = progress.expectedBytes
        }
    }
}

extension ImageLoad {
    /// A handle returned by ``ImageManager/load(_:progress:completion:)``: cancel it to stop the load.
    public struct Operation: Sendable {
        /// The task behind the operation.
        public let task: ImageTask

        /// Cancels the load; the completion handler gets ``WebImageError/Code/cancelled``.
        public func cancel() { task.cancel() }
    }
}
