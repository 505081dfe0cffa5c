public import Foundation
import Synchronization

extension ImagePrefetcher {
    /// How far a prefetch has come.
    public struct Progress: Sendable, Hashable {
        /// URLs loaded (or found in the cache).
        public var finished: Int
        /// URLs whose load failed (or was cancelled).
        public var failed: Int
        /// Entries that were not URLs (nil), so nothing was tried.
        public var skipped: Int
        /// URLs that never started because the prefetch was stopped (``ImagePrefetcher/Token/cancel()``,
        /// ``ImagePrefetcher/cancelAll()`` or the prefetcher's release). Loads that were running when
        /// it stopped end as cancelled failures and count in ``failed``.
        public var cancelledCount: Int
        /// URLs asked for.
        public var total: Int

        /// Counts from explicit values.
        public init(finished: Int, failed: Int, skipped: Int = 0, cancelledCount: Int = 0, total: Int) {
            self.finished = finished
            self.failed = failed
            self.skipped = skipped
            self.cancelledCount = cancelledCount
            self.total = total
        }

        /// Whether the prefetch was stopped before every URL was tried.
        public var cancelled: Bool { cancelledCount > 0 }

        /// URLs done, whichever way (``total`` once the prefetch has ended).
        public var completed: Int { finished + failed + skipped + cancelledCount }
    }
}

extension ImagePrefetcher {
    /// What became of one entry of a prefetch list.
    public struct Result: Sendable {
        /// How the entry ended.
        public enum Outcome: Sendable {
            /// Loaded, or found in the cache of this type.
            case finished(ImageCacheType)
            /// The load failed with this error (a `WebImageError`, e.g. `.cancelled`).
            case failed(any Error)
            /// The entry was not a URL.
            case skipped
        }

        /// The entry's position in the list given to ``ImagePrefetcher/prefetch(_:)``.
        public var index: Int
        /// The URL, or nil for a skipped entry.
        public var url: URL?
        /// How it ended.
        public var outcome: Outcome
    }
}

extension ImagePrefetcher {
    /// One ``ImagePrefetcher/prefetch(_:)`` call: its progress, completion and cancellation.
    public final class Token: Sendable {
        private struct State {
            var progress: ImagePrefetcher.Progress
            /// The index of the next entry to start.
            var nextIndex = 0
            var ended = false
            var work: Task<Void, Never>?
            var waiters: [CheckedContinuation<ImagePrefetcher.Progress, Never>] = []
        }
        private let state: Mutex<State>
        private let continuation: AsyncStream<ImagePrefetcher.Progress>.Continuation
        private let resultContinuation: AsyncStream<ImagePrefetcher.Result>.Continuation
        /// A value after every entry (finished, failed or skipped), and one more with the cancelled
        /// count when the prefetch is stopped; ends with the prefetch.
        public let progress: AsyncStream<ImagePrefetcher.Progress>
        /// Each entry's outcome as it ends, with the error of a failure; ends with the prefetch.
        public let results: AsyncStream<ImagePrefetcher.Result>

        init(total: Int) {
            state = Mutex(State(progress: ImagePrefetcher.Progress(finished: 0, failed: 0, total: total)))
            (progress, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
            (results, resultContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        }

        /// The final counts, once every URL was tried or the prefetch was cancelled.
        public var completion: ImagePrefetcher.Progress {
            get async {
                await withCheckedContinuation { continuation in
                    let done = state.withLock { state -> ImagePrefetcher.Progress? in
                        if state.ended { return state.progress }
                        state.waiters.append(continuation)
                        return nil
                    }
                    if let done { continuation.resume(returning: done) }
                }
            }
        }

        /// The counts so far.
        public var current: ImagePrefetcher.Progress { state.withLock { $0.progress } }

        /// Stops the prefetch: running loads are cancelled (they count as failed), queued ones never
        /// start (they count in ``ImagePrefetcher/Progress/cancelledCount`` and have no result).
        public func cancel() { state.withLock { $0.work }?.cancel() }

        func attach(_ work: Task<Void, Never>) { state.withLock { $0.work = work } }

        /// The index of the next entry to start, in list order; nil once every entry has started.
        func takeNextIndex() -> Int? {
            state.withLock { state in
                guard state.nextIndex < state.progress.total else { return nil }
                defer { state.nextIndex += 1 }
                return state.nextIndex
            }
        }

        func record(_ result: ImagePrefetcher.Result) {
            let progress = state.withLock { state in
                switch result.outcome {
                case .finished: state.progress.finished += 1
                case .failed: state.progress.failed += 1
                case .skipped: state.progress.skipped += 1
                }
                return state.progress
            }
            resultContinuation.yield(result)
            continuation.yield(progress)
        }

        func end(cancelled: Bool) {
            let (progress, waiters, stopped) = state.withLock { state in
                state.ended = true
                let stopped = cancelled && state.progress.completed < state.progress.total
                if stopped { state.progress.cancelledCount = state.progress.total - state.progress.completed }
                defer { state.waiters.removeAll() }
                return (state.progress, state.waiters, stopped)
            }
            if stopped { continuation.yield(progress) }
            resultContinuation.finish()
            continuation.finish()
            for waiter in waiters { waiter.resume(returning: progress) }
        }
    }
}
