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
        guard limit > .zero else { throw Self.totalTimeoutError(limit, url: url) }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            // The first child to end decides; the other is cancelled (and awaited by the group).
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw Self.totalTimeoutError(limit, url: url)
            }
            return value
        }
    }

    static func totalTimeoutError(_ limit: Duration, url: URL) -> WebImageError {
        WebImageError(
            .timedOut, "the download of \(url.absoluteString) timed out after \(describe(limit)) (its total timeout, the deadline for the whole download)")
    }
}
