import Foundation
import WebImage

extension HTTPImageLoader {
    /// Deadlines at or beyond this are treated as none (no timer is set).
    static let unboundedDeadline = Duration.seconds(100 * 365 * 86_400)

    /// Runs `operation` (a whole download: every hop, the credential retry, the body), failing
    /// with `timedOut` when it has not finished within `limit` however steadily bytes arrive.
    /// AsyncHTTPClient's own deadline ends with the response head, and its read timeout only
    /// bounds the wait between two reads, so an origin dripping a byte at a time would hold a
    /// download for as long as it liked.
    func withTotalTimeout<T: Sendable>(
        _ limit: Duration, url: URL, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard limit < Self.unboundedDeadline else { return try await operation() }
        return try await withDeadline(limit, timeout: { Self.totalTimeoutError(limit, url: url) }, operation)
    }

    static func totalTimeoutError(_ limit: Duration, url: URL) -> WebImageError {
        WebImageError(
            .timedOut, "the download of \(url.absoluteString) timed out after \(describe(limit)) (its total timeout, the deadline for the whole download)")
    }
}
