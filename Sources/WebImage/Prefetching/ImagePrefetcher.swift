public import Foundation
import Synchronization

/// Loads a list of URLs or requests ahead of time at low priority, a few at once, into the caches
/// (SDWebImage's `SDWebImagePrefetcher`, Nuke's and Kingfisher's `ImagePrefetcher`).
///
/// Requests are prefetched whole (thumbnail, transformer, every setting): a later load of the same
/// request finds the result in the cache under the key it looks for. The prefetcher can be paused
/// and resumed, and its ``priority`` changed while it runs.
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
///
/// var request = ImageRequest(url: url)
/// request.decoding.thumbnailPixelSize = PixelSize(width: 256, height: 256)
/// prefetcher.prefetch([request])
/// prefetcher.pause()                     // scrolling fast: nothing new starts
/// prefetcher.priority = .normal          // queued and running prefetches alike
/// prefetcher.resume()
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
    /// Options added to every prefetch request (the priority flags come from ``priority``).
    public let options: ImageRequest.Options
    private let tokens = Mutex<[ObjectIdentifier: ImagePrefetcher.Token]>([:])
    private let control = Control(priority: .low)

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

    /// The download priority of the prefetches (default ``ImageLoad/Priority/low``): of the loads
    /// started from now on and of the running ones, which a loader reorders while they wait in its
    /// queue. It replaces the requests' own priority flags.
    public var priority: ImageLoad.Priority {
        get { control.priority }
        set { control.setPriority(newValue) }
    }

    /// Whether the prefetcher is paused (``pause()``).
    public var isPaused: Bool { control.isPaused }

    /// Stops starting loads, for every prefetch of this prefetcher, until ``resume()``: the loads
    /// already running finish (their results are recorded), the queued ones wait. Stopping a
    /// prefetch while paused counts its waiting entries as cancelled, as usual.
    public func pause() { control.pause() }

    /// Starts loads again after ``pause()``, where each prefetch left off.
    public func resume() { control.resume() }

    /// Starts prefetching `urls`; nil entries count as skipped.
    @discardableResult
    public func prefetch(_ urls: [URL?]) -> ImagePrefetcher.Token {
        start(urls.map { url in url.map { ImageRequest(url: $0) } })
    }

    /// Starts prefetching `requests` whole: each is loaded as ``ImageManager/image(for:)-(ImageRequest)``
    /// would load it (thumbnail, transformer, caching settings), with the prefetcher's
    /// ``options`` added and its ``priority``, so a later load of the same request is a cache hit.
    /// With ``Destination/diskOnly`` only the original bytes go to disk.
    ///
    /// ```swift
    /// var request = ImageRequest(url: url)
    /// request.transformer = ResizeTransformer(size: PixelSize(width: 200, height: 200), mode: .aspectFill)
    /// let token = prefetcher.prefetch([request])
    /// ```
    @discardableResult
    public func prefetch(_ requests: [ImageRequest]) -> ImagePrefetcher.Token {
        start(requests.map { Optional($0) })
    }

    /// Runs one prefetch of `entries` (nil entries are skipped).
    private func start(_ entries: [ImageRequest?]) -> ImagePrefetcher.Token {
        let token = ImagePrefetcher.Token(total: entries.count)
        let id = ObjectIdentifier(token)
        tokens.withLock { $0[id] = token }
        let (manager, destination, options, control) = (manager, destination, options, control)
        let workers = Self.workerCount(limit: maximumConcurrentPrefetches, urlCount: entries.count)
        let work = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        while !Task.isCancelled {
                            await control.waitUntilRunning()
                            if Task.isCancelled { return }
                            guard let index = token.takeNextIndex() else { return }
                            token.record(
                                await Self.load(
                                    entries[index], index: index, manager: manager, destination: destination,
                                    options: options, control: control))
                        }
                    }
                }
            }
            token.end(cancelled: Task.isCancelled)
            _ = self?.tokens.withLock { $0.removeValue(forKey: id) }
        }
        token.attach(work)
        return token
    }

    /// Loads one entry at the control's priority; a cancelled caller cancels its load.
    private static func load(
        _ entry: ImageRequest?, index: Int, manager: ImageManager, destination: Destination,
        options: ImageRequest.Options, control: Control
    ) async -> ImagePrefetcher.Result {
        guard var request = entry else { return ImagePrefetcher.Result(index: index, url: nil, outcome: .skipped) }
        request.options.formUnion(options)
        request.options.subtract(.scheduling)
        switch control.priority {
        case .low: request.options.insert(.lowPriority)
        case .normal: break
        case .high: request.options.insert(.highPriority)
        }
        let url = request.namingURL
        do {
            let cacheType: ImageCacheType
            switch destination {
            case .memoryAndDisk:
                let task = manager.task(for: request)
                let id = control.track(startedAt: request.priority) { task.priority = $0 }
                defer { control.finish(id) }
                cacheType = try await task.response.cacheType
            case .diskOnly:
                let relay = LoadRelay()
                let id = control.track(startedAt: request.priority) { relay.setPriority($0) }
                defer { control.finish(id) }
                cacheType = try await manager.prefetchOriginalBytes(for: request, onLoad: { relay.attach($0) })
            }
            return ImagePrefetcher.Result(index: index, url: url, outcome: .finished(cacheType))
        } catch {
            return ImagePrefetcher.Result(index: index, url: url, outcome: .failed(error))
        }
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
