public import Foundation
import Synchronization

/// Loads a list of URLs ahead of time at low priority, a few at once, into the caches
/// (SDWebImage's `SDWebImagePrefetcher`).
///
/// Keep the prefetcher while its prefetches run: releasing it cancels them, as Nuke's
/// `ImagePrefetcher` does (running loads are cancelled, queued URLs never start).
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)      // kept, e.g. as a property
/// let token = prefetcher.prefetch(urls)
/// for await result in token.results {
///     if case .failed(let error) = result.outcome { print(result.url!, error) }
/// }
/// let summary = await token.completion   // finished, failed, skipped, cancelled, total
/// ```
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images go.
    public enum Destination: Sendable, Hashable {
        /// Decoded into memory, bytes on disk (the default).
        case memoryAndDisk
        /// The original bytes on disk only: nothing is decoded and nothing goes into memory. The
        /// bytes must carry an image signature a coder knows (else `badImageData` or
        /// `unsupportedFormat`); a URL already on disk is not downloaded again.
        case diskOnly
    }

    /// The manager that loads.
    public let manager: ImageManager
    /// How many URLs load at once (default 3; at least 1). A prefetch of fewer URLs runs as many
    /// loads as it has URLs.
    public let maximumConcurrentPrefetches: Int
    /// Where images go.
    public let destination: Destination
    /// Options added to every prefetch request (`.lowPriority` is always added).
    public let options: ImageRequest.Options
    private let tokens = Mutex<[ObjectIdentifier: ImagePrefetcher.Token]>([:])

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

    /// Releasing the prefetcher cancels what it is still prefetching.
    deinit {
        cancelAll()
    }

    /// Starts prefetching `urls`; nil entries count as skipped.
    @discardableResult
    public func prefetch(_ urls: [URL?]) -> ImagePrefetcher.Token {
        let token = ImagePrefetcher.Token(total: urls.count)
        let id = ObjectIdentifier(token)
        tokens.withLock { $0[id] = token }
        let (manager, destination, options) = (manager, destination, options)
        let workers = Self.workerCount(limit: maximumConcurrentPrefetches, urlCount: urls.count)
        let work = Task { [weak self] in
            await withTaskGroup(of: ImagePrefetcher.Result.self) { group in
                var iterator = urls.enumerated().makeIterator()
                func addNext() {
                    guard let (index, next) = iterator.next() else { return }
                    group.addTask {
                        guard let url = next else { return ImagePrefetcher.Result(index: index, url: nil, outcome: .skipped) }
                        let request = ImageRequest(url: url, options: options.union(.lowPriority))
                        do {
                            let cacheType: ImageCacheType
                            switch destination {
                            case .memoryAndDisk: cacheType = try await manager.image(for: request).cacheType
                            case .diskOnly: cacheType = try await manager.prefetchOriginalBytes(for: request)
                            }
                            return ImagePrefetcher.Result(index: index, url: url, outcome: .finished(cacheType))
                        } catch {
                            return ImagePrefetcher.Result(index: index, url: url, outcome: .failed(error))
                        }
                    }
                }
                for _ in 0..<workers where !Task.isCancelled { addNext() }
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

    /// How many loads run at once for `urlCount` URLs: the limit, but never more than there is
    /// work (a limit of `Int.max` must not mean `Int.max` turns of a loop).
    static func workerCount(limit: Int, urlCount: Int) -> Int {
        max(0, min(limit, urlCount))
    }

    /// Cancels every running prefetch.
    public func cancelAll() {
        let running = tokens.withLock { Array($0.values) }
        for token in running { token.cancel() }
    }
}
