import Foundation
import Logging

/// Alternative sources (Kingfisher's `alternativeSources`): the request's URL, then its fallback
/// URLs, tried in order under the failed-URL rule. Shared by the download+decode stage and the
/// disk-only prefetch.
extension ImageManager {
    /// Runs `attempt` on each of `plan`'s sources in turn until one succeeds, and returns its value
    /// and the source that answered.
    ///
    /// A source the failed-URL list blocks is skipped (unless `retryFailed`), so is one the
    /// should-download hook refuses; every other failure is recorded against its own URL (a 404
    /// blocks that URL, not the request's). A cancellation ends the search at once. When every
    /// source fails, the last failure is thrown.
    func firstAnswer<T: Sendable>(
        _ plan: RequestPlan, loader: any ImageLoading, _ attempt: (URL, _ index: Int) async throws -> T
    ) async throws -> (value: T, source: URL) {
        var lastError: (any Error)?
        for (index, source) in plan.sources.enumerated() {
            if !plan.options.contains(.retryFailed), failedURLs.count > 0, failedURLs.isBlocked(source) {
                logger.debug("skipping \(source.absoluteString): it failed before and is blocked")
                lastError = WebImageError(.blockedURL, "\(source.absoluteString) failed before and is blocked")
                continue
            }
            if let shouldDownload = configuration.shouldDownload, !shouldDownload(source) {
                lastError = WebImageError(.downloadDisallowed, "the should-download hook refused \(source.absoluteString)")
                continue
            }
            do {
                let value = try await attempt(source, index)
                failedURLs.recordSuccess(source)
                return (value, source)
            } catch {
                if Task.isCancelled || error is CancellationError || (error as? WebImageError)?.code == .cancelled {
                    throw error
                }
                recordFailure(source, error: error, loader: loader)
                lastError = error
            }
        }
        throw lastError ?? WebImageError(.invalidURL, "the request has no URL to load")
    }
}
