public import Foundation
import Synchronization

/// Loads a list of URLs ahead of time at low priority, a few at once, into the caches
/// (SDWebImage's `SDWebImagePrefetcher`).
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let token = prefetcher.prefetch(urls)
/// for await result in token.results {
///     if case .failed(let error) = result.outcome { print(result.url!, error) }
/// }
/// let summary = await token.completion   // finished, failed, skipped, total
/// ```
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images go.
    public enum Destination: Sendable, Hashable {
        /// Memory and disk (the default).
        case memoryAndDisk
        /// Disk only: nothing is kept in memory.
        case diskOnly
    }

    /// The manager that loads.
    public let manager: ImageManager
    /// How many URLs load at once (default 3).
    public let maximumConcurrentPrefetches: Int
    /// Where images go.
    public let destination: Destination
    /// Options added to every prefetch request (`.lowPriority` is always added).
    public let options: ImageRequest.Options
    private let tokens = Mutex<[ObjectIdentifier: ImagePrefetchToken]>([:])

    /// A prefetcher over `manager`.
    public init(
        manager: ImageManager, maximumConcurrentPrefetches: Int = 3, destination: Destination = .memoryAndDisk,
        options: ImageRequest.Options = []
    ) {
        self.manager = manager
        self.maximumConcurrentPrefetches = max(1, maximumConcurrentPrefetches)
        self.destination = destination
        self.options = options
    }

    /// Starts prefetching `urls`; nil entries count as skipped.
    @discardableResult
    public func prefetch(_ urls: [URL?]) -> ImagePrefetchToken {
        let token = ImagePrefetchToken(total: urls.count)
        let id = ObjectIdentifier(token)
        tokens.withLock { $0[id] = token }
        let (manager, limit, destination, options) = (manager, maximumConcurrentPrefetches, destination, options)
        let work = Task { [weak self] in
            await withTaskGroup(of: ImagePrefetchResult.self) { group in
                var iterator = urls.enumerated().makeIterator()
                func addNext() {
                    guard let (index, next) = iterator.next() else { return }
                    group.addTask {
                        guard let url = next else { return ImagePrefetchResult(index: index, url: nil, outcome: .skipped) }
                        var request = ImageRequest(url: url, options: options.union(.lowPriority))
                        if destination == .diskOnly { request.storeCacheType = .disk }
                        do {
                            let response = try await manager.image(for: request)
                            return ImagePrefetchResult(index: index, url: url, outcome: .finished(response.cacheType))
                        } catch {
                            return ImagePrefetchResult(index: index, url: url, outcome: .failed(error))
                        }
                    }
                }
                for _ in 0..<limit where !Task.isCancelled { addNext() }
                for await result in group {
                    token.record(result)
                    if !Task.isCancelled { addNext() }
                }
            }
            token.end(cancelled: Task.isCancelled)
            _ = self?.tokens.withLock { $0.removeValue(forKey: id) }
        }
        token.attach(work)
        return token
    }

    /// Cancels every running prefetch.
    public func cancelAll() {
        let running = tokens.withLock { Array($0.values) }
        for token in running { token.cancel() }
    }
}

/// How far a prefetch has come.
public struct ImagePrefetchProgress: Sendable, Hashable {
    /// URLs loaded (or found in the cache).
    public var finished: Int
    /// URLs whose load failed (or was cancelled).
    public var failed: Int
    /// Entries that were not URLs (nil), so nothing was tried.
    public var skipped: Int
    /// URLs asked for.
    public var total: Int
    /// Whether the prefetch was cancelled before every URL was tried.
    public var cancelled: Bool = false

    /// Counts from explicit values.
    public init(finished: Int, failed: Int, skipped: Int = 0, total: Int, cancelled: Bool = false) {
        self.finished = finished
        self.failed = failed
        self.skipped = skipped
        self.total = total
        self.cancelled = cancelled
    }

    /// URLs done, whichever way.
    public var completed: Int { finished + failed + skipped }
}

/// What became of one entry of a prefetch list.
public struct ImagePrefetchResult: Sendable {
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

/// One ``ImagePrefetcher/prefetch(_:)`` call: its progress, completion and cancellation.
public final class ImagePrefetchToken: Sendable {
    private struct State {
        var progress: ImagePrefetchProgress
        var ended = false
        var work: Task<Void, Never>?
        var waiters: [CheckedContinuation<ImagePrefetchProgress, Never>] = []
    }
    private let state: Mutex<State>
    private let continuation: AsyncStream<ImagePrefetchProgress>.Continuation
    private let resultContinuation: AsyncStream<ImagePrefetchResult>.Continuation
    /// A value after every entry (finished, failed or skipped); ends with the prefetch.
    public let progress: AsyncStream<ImagePrefetchProgress>
    /// Each entry's outcome as it ends, with the error of a failure; ends with the prefetch.
    public let results: AsyncStream<ImagePrefetchResult>

    init(total: Int) {
        state = Mutex(State(progress: ImagePrefetchProgress(finished: 0, failed: 0, total: total)))
        (progress, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (results, resultContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// The final counts, once every URL was tried or the prefetch was cancelled.
    public var completion: ImagePrefetchProgress {
        get async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> ImagePrefetchProgress? in
                    if state.ended { return state.progress }
                    state.waiters.append(continuation)
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        }
    }

    /// The counts so far.
    public var current: ImagePrefetchProgress { state.withLock { $0.progress } }

    /// Stops the prefetch: running loads are cancelled (they count as failed), queued ones never start.
    public func cancel() { state.withLock { $0.work }?.cancel() }

    func attach(_ work: Task<Void, Never>) { state.withLock { $0.work = work } }

    func record(_ result: ImagePrefetchResult) {
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
        let (progress, waiters) = state.withLock { state in
            state.ended = true
            state.progress.cancelled = cancelled && state.progress.completed < state.progress.total
            defer { state.waiters.removeAll() }
            return (state.progress, state.waiters)
        }
        resultContinuation.finish()
        continuation.finish()
        for waiter in waiters { waiter.resume(returning: progress) }
    }
}
