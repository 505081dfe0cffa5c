public import Foundation

/// Something that turns a URL into bytes: SDWebImage's `SDImageLoader`.
///
/// A loader says which URLs it can load, loads them as a stream of events (response, progress
/// with the bytes so far, then the whole body with its response metadata), and says which
/// failures should block a URL from being tried again.
///
/// ```swift
/// let loaders = ImageLoadersManager.fileAndData()
/// let result = try await loaders.load(ImageLoad.Request(url: fileURL)).result()
/// ```
public protocol ImageLoading: Sendable {
    /// A short name, unique among the loaders of one manager (`"http"`, `"file"`, `"data"`).
    var name: String { get }

    /// Whether this loader handles `url` (usually by its scheme).
    func canLoad(_ url: URL) -> Bool

    /// Starts loading; the returned task streams the events and can be cancelled.
    func load(_ request: ImageLoad.Request) -> ImageLoad.Task

    /// Whether a failure to load `url` with `error` should block `url` from later loads
    /// (SDWebImage's `shouldBlockFailedURLWithURL:error:`).
    func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool
}

extension ImageLoading {
    /// The standard rule: ``FailedURLBlockingPolicy/standard``.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        FailedURLBlockingPolicy.standard.shouldBlock(error)
    }
}
