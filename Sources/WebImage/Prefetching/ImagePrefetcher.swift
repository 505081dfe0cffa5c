public import Foundation
import Synchronization

/// Loads a list of URLs ahead of time at low priority, a few at once, into the caches
/// (SDWebImage's `SDWebImagePrefetcher`).
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let token = prefetcher.prefetch(urls)
/// for await progress in token.progress { print(progress.finished, "/", progress.total) }
/// let summary = await token.completion
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

    /// Starts prefetching `urls`; nil entries and invalid URLs count as skipped.
    @discardableResult
    public func prefetch(_ urls: [URL?]) -> ImagePrefetchToken {
        let token = ImagePrefetchToken(total: urls.count)
        let id = ObjectIdentifier(token)
        tokens.withLock { $0[id] = token }
        let (manager, limit, destination, options) = (manager, maximumConcurrentPrefetches, destination, options)
        let work = Task { [weak self] in
            await withTaskGroup(of: Bool.self) { group in
                var iterator = urls.makeIterator()
                func addNext() -> Bool {
                    guard let next = iterator.next() else { return false }
                    group.addTask {
                        guard let url = next else { return false }
                        var request = ImageRequest(url: url, options: options.union(.lowPriority))
                        if destination == .diskOnly { request.storeCacheType = .disk }
                        do {
                            _ = try await manager.image(for: request)
                            return true
                        } catch {
                            return false
                        }
                    }
                    return true
                }
                for _ in 0..<limit where !Task.isCancelled { _ = addNext() }
                for await succeeded in group {
                    token.record(succeeded: succeeded)
                    if !Task.isCancelled { _ = addNext() }
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
    /// URLs that failed or were skipped.
    public var failed: Int
    /// URLs asked for.
    public var total: Int
    /// Whether the prefetch was cancelled before every URL was tried.
    public var cancelled: Bool = false

    /// Counts from explicit values.
    public init(finished: Int, failed: Int, total: Int, cancelled: Bool = false) {
        self.finished = finished
        self.failed = failed
        self.total = total
        self.cancelled = cancelled
    }

    /// URLs done either way.
    public var completed: Int { finished + failed }
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
    /// A value after every URL (finished or failed); ends with the prefetch.
    public let progress: AsyncStream<ImagePrefetchProgress>

    init(total: Int) {
        state = Mutex(State(progress: ImagePrefetchProgress(finished: 0, failed: 0, total: total)))
        (progress, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
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

    func record(succeeded: Bool) {
        let progress = state.withLock { state in
            if succeeded { state.progress.finished += 1 } else { state.progress.failed += 1 }
            return state.progress
        }
        continuation.yield(progress)
    }

    func end(cancelled: Bool) {
        let (progress, waiters) = state.withLock { state in
            state.ended = true
            state.progress.cancelled = cancelled && state.progress.completed < state.progress.total
            defer { state.waiters.removeAll() }
            return (state.progress, state.waiters)
        }
        continuation.finish()
        for waiter in waiters { waiter.resume(returning: progress) }
    }
}
