/// Which load failures are transient, worth another attempt: the counterpart of
/// ``FailedURLBlockingPolicy`` (which decides what is permanent).
///
/// The standard policy: the statuses 408, 429, 500, 502, 503 and 504, and the code
/// ``WebImageError/Code/timedOut`` (a connect, head or idle timeout; the total deadline ends every
/// retry anyway). Never a 4xx otherwise, a 501 or 505 (they will not change), a refused URL, bad
/// bytes or a cancellation. A ``WebImageError/Code/networkError`` is not transient by its code
/// alone: a loader that knows its cause adds the transient ones (the HTTP loader: a connection
/// reset or closed before the response ended; never a refused or unresolvable host, or TLS).
///
/// ```swift
/// var policy = TransientFailurePolicy.standard
/// policy.transientStatusCodes.insert(520)      // a CDN's "origin returned an unknown error"
/// ```
public struct TransientFailurePolicy: Sendable, Hashable {
    /// Error codes that are always transient.
    public var transientCodes: Set<WebImageError.Code>
    /// HTTP statuses that are transient when a load fails with
    /// ``WebImageError/Code/invalidDownloadStatusCode``.
    public var transientStatusCodes: Set<Int>

    /// A policy from explicit sets.
    public init(transientCodes: Set<WebImageError.Code>, transientStatusCodes: Set<Int>) {
        self.transientCodes = transientCodes
        self.transientStatusCodes = transientStatusCodes
    }

    /// Timeouts, 408, 429, 500, 502, 503 and 504.
    public static let standard = TransientFailurePolicy(
        transientCodes: [.timedOut], transientStatusCodes: [408, 429, 500, 502, 503, 504])

    /// Whether `error` is worth another attempt. Errors that are not ``WebImageError`` never are.
    public func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? WebImageError else { return false }
        if transientCodes.contains(error.code) { return true }
        if error.code == .invalidDownloadStatusCode, let status = error.statusCode {
            return transientStatusCodes.contains(status)
        }
        return false
    }
}
