import Synchronization

/// Ending every request at once (SDWebImage's `cancelAll`, Kingfisher's `cancelAll`, Nuke's
/// `invalidate`).
extension ImageManager {
    /// Cancels every running task: each ends with ``WebImageError/Code/cancelled`` and the shared
    /// work behind it (downloads through the loader included, unless someone else waits on them)
    /// stops. New requests are served as usual.
    ///
    /// ```swift
    /// manager.cancelAll()        // the user left the gallery
    /// ```
    public func cancelAll() {
        cancelRunning(WebImageError(.cancelled, "the image request was cancelled (cancelAll)"))
    }

    /// Cancels every running task as ``cancelAll()`` does, and refuses every later request with
    /// ``WebImageError/Code/invalidated``, memory hits included (``cachedImage(for:)`` answers nil).
    /// There is no way back: make a new manager.
    ///
    /// ```swift
    /// manager.invalidate()
    /// try await manager.image(for: url)      // throws WebImageError, code .invalidated
    /// ```
    public func invalidate() {
        invalidation.store(true, ordering: .releasing)
        cancelRunning(WebImageError(.cancelled, "the image request was cancelled (the manager was invalidated)"))
    }

    /// Whether ``invalidate()`` was called.
    public var isInvalidated: Bool { invalidation.load(ordering: .acquiring) }

    /// The error every request gets after ``invalidate()``.
    static let invalidatedError = WebImageError(.invalidated, "the image manager was invalidated and takes no more requests")

    /// Ends the final-image jobs first, so that each caller gets `error` rather than its fetch
    /// stage's, then whatever fetch stage is left.
    private func cancelRunning(_ error: WebImageError) {
        finals.cancelAll(with: error)
        fetches.cancelAll(with: error)
    }
}
