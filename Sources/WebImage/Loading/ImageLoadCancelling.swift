public import Foundation

/// A loader whose loads can be cancelled all at once or by URL (SDWebImage's
/// `cancelAllDownloads`, Kingfisher's `cancelAll` and `cancel(url:)`).
///
/// Cancelling ends each affected caller's events with ``WebImageError/Code/cancelled``, as
/// ``ImageLoad/Task/cancel()`` would, and stops the transfers no one waits for any more.
///
/// ```swift
/// http.cancelLoads(of: url)       // the cell scrolled away
/// loaders.cancelAll()             // the user signed out
/// ```
public protocol ImageLoadCancelling: ImageLoading {
    /// Cancels every load running or waiting now.
    func cancelAll()
    /// Cancels every load of `url` (every caller of every download of it).
    func cancelLoads(of url: URL)
}

extension ImageLoadersManager: ImageLoadCancelling {
    /// Cancels every load of every registered loader that can (``ImageLoadCancelling``).
    public func cancelAll() {
        for case let loader as any ImageLoadCancelling in loaders { loader.cancelAll() }
    }

    /// Cancels the loads of `url` in every registered loader that can.
    public func cancelLoads(of url: URL) {
        for case let loader as any ImageLoadCancelling in loaders { loader.cancelLoads(of: url) }
    }
}
