import Foundation
import Logging

/// What the manager does with a failed load: name the content type a server sent, and block the
/// URL when the failure is permanent. Shared by the download+decode stage and the disk-only
/// prefetch.
extension ImageManager {
    /// A decode failure of a response that did not say it was an image names the content type the
    /// server sent (a login page or an error page served with 200 is a common cause).
    static func namingContentType(_ error: any Error, of response: ImageLoad.Response) -> any Error {
        guard let typed = error as? WebImageError, typed.code == .badImageData || typed.code == .unsupportedFormat,
            let mime = response.mimeType, !mime.hasPrefix("image/"), mime != "application/octet-stream"
        else { return error }
        return WebImageError(typed.code, typed.message + " (the server sent \(mime))", underlying: typed.underlying)
    }

    /// Blocks `url` when the hook (or else the loader's rule) says the failure is permanent.
    func recordFailure(_ url: URL, error: any Error, loader: any ImageLoading) {
        if error is CancellationError || (error as? WebImageError)?.code == .cancelled { return }
        metrics.failures.increment()
        logger.warning("loading \(url.absoluteString) failed: \(error)")
        let block = configuration.shouldBlockFailedURL?(url, error) ?? loader.shouldBlockFailedURL(url, error: error)
        guard block else { return }
        let typed = error as? WebImageError ?? WebImageError(.badImageData, "\(error)", underlying: nil)
        failedURLs.recordFailure(url, error: typed)
    }
}
