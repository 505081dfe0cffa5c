public import Foundation
import Synchronization

/// A loader made of loaders, asked in reverse order of registration: the last added that can
/// load a URL loads it (SDWebImage's `SDImageLoadersManager`).
///
/// The core's ``fileAndData()`` holds the file:// and data: loaders; `WebImageHTTP` adds
/// `ImageLoadersManager.standard()`, which holds the HTTP loader too.
///
/// ```swift
/// let loaders = ImageLoadersManager.fileAndData()
/// loaders.addLoader(MyS3Loader())          // asked first from now on
/// let result = try await loaders.load(ImageLoad.Request(url: url)).result()
/// ```
public final class ImageLoadersManager: ImageLoading {
    private let registered: Mutex<[any ImageLoading]>

    /// A manager holding `loaders` (the last one is asked first).
    public init(loaders: [any ImageLoading] = []) {
        registered = Mutex(loaders)
    }

    /// A manager holding the file:// and data: loaders.
    public static func fileAndData() -> ImageLoadersManager {
        ImageLoadersManager(loaders: [FileImageLoader(), DataURLImageLoader()])
    }

    /// `"manager"`.
    public var name: String { "manager" }

    /// The registered loaders, in registration order.
    public var loaders: [any ImageLoading] {
        get { registered.withLock { $0 } }
        set { registered.withLock { $0 = newValue } }
    }

    /// Registers a loader; it is asked before every loader already registered.
    public func addLoader(_ loader: any ImageLoading) {
        registered.withLock { $0.append(loader) }
    }

    /// Removes every loader with this name.
    public func removeLoader(named name: String) {
        registered.withLock { $0.removeAll { $0.name == name } }
    }

    /// The loader that would load `url`: the last registered one that can.
    public func loader(for url: URL) -> (any ImageLoading)? {
        loaders.last { $0.canLoad(url) }
    }

    public func canLoad(_ url: URL) -> Bool { loader(for: url) != nil }

    /// Loads with the loader for the URL; a URL no loader handles fails with
    /// ``WebImageError/Code/invalidURL``.
    public func load(_ request: ImageLoad.Request) -> ImageLoad.Task {
        guard let loader = loader(for: request.url) else {
            return .failed(WebImageError(.invalidURL, "no loader can load \(request.url.absoluteString)"))
        }
        return loader.load(request)
    }

    /// Asks the loader for the URL; without one, the standard policy decides.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        guard let loader = loader(for: url) else { return FailedURLBlockingPolicy.standard.shouldBlock(error) }
        return loader.shouldBlockFailedURL(url, error: error)
    }
}
