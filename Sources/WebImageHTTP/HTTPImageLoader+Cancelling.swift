public import Foundation
public import WebImage

extension HTTPImageLoader: ImageLoadCancelling {
    /// Cancels every caller of every download, queued or running; each transfer stops.
    public func cancelAll() {
        let tokens = state.withLock { Array($0.subscribers.keys) }
        for token in tokens { cancel(token: token) }
    }

    /// Cancels every caller of every download of `url` (plain, revalidating, lenient); other
    /// downloads go on.
    public func cancelLoads(of url: URL) {
        let key = url.absoluteString
        let tokens = state.withLock { state in
            state.machine.downloads.values.filter { $0.key.url == key }.flatMap { $0.subscribers.map(\.token) }
        }
        for token in tokens { cancel(token: token) }
    }
}
