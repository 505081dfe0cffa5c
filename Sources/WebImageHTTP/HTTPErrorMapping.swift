import AsyncHTTPClient
import Foundation
import NIOSSL
import WebImage

extension HTTPImageLoader {
    /// Maps a transport error to the one error type: timeouts to `timedOut` (never blocked),
    /// connection failures, lost connections and failed TLS handshakes (an untrusted certificate
    /// among them) to `networkError` (never blocked), bad URLs to `invalidURL`, redirect loops and
    /// overflows to `invalidDownloadResponse`.
    static func webImageError(for error: any Error, url: URL) -> WebImageError {
        if let error = error as? WebImageError { return error }
        if error is CancellationError { return WebImageError(.cancelled, "the load of \(url.absoluteString) was cancelled") }
        let described = "\(url.absoluteString)"
        if error is NIOSSLError || error is BoringSSLError {
            return WebImageError(
                .networkError, "the TLS handshake with \(described) failed (is its certificate trusted?)", underlying: error)
        }
        guard let client = error as? HTTPClientError else {
            return WebImageError(.networkError, "the transfer of \(described) failed", underlying: error)
        }
        switch client {
        case .readTimeout, .writeTimeout, .deadlineExceeded, .connectTimeout, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return WebImageError(.timedOut, "the transfer of \(described) timed out", underlying: client)
        case .cancelled:
            return WebImageError(.cancelled, "the load of \(described) was cancelled", underlying: client)
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
            return WebImageError(.invalidURL, "\(described) is not a valid HTTP URL", underlying: client)
        case .redirectLimitReached, .redirectCycleDetected:
            return WebImageError(.invalidDownloadResponse, "too many redirects from \(described)", underlying: client)
        default:
            return WebImageError(.networkError, "the transfer of \(described) failed", underlying: client)
        }
    }
}
