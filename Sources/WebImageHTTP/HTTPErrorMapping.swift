import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WebImage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension HTTPImageLoader {
    /// Maps a transport error to the one error type, naming its cause in the message: timeouts
    /// to `timedOut` with the limit that ran out; DNS failures, refused or lost connections and
    /// failed TLS handshakes (an untrusted certificate among them) to `networkError`; bad URLs
    /// to `invalidURL`. Neither timeouts nor network errors block the URL.
    func webImageError(for error: any Error, request: ImageLoad.Request) -> WebImageError {
        if let error = error as? WebImageError { return error }
        let url = request.url.absoluteString
        if error is CancellationError { return WebImageError(.cancelled, "the load of \(url) was cancelled") }
        if let client = error as? HTTPClientError {
            return webImageError(for: client, request: request)
        }
        let cause = Self.networkCause(of: error)
        return WebImageError(.networkError, "the transfer of \(url) failed: \(cause)", underlying: error)
    }

    private func webImageError(for client: HTTPClientError, request: ImageLoad.Request) -> WebImageError {
        let url = request.url.absoluteString
        // A loader over a client it does not own cannot know that client's connect and read timeouts.
        let after = { (limit: Duration) in self.ownsClient ? " after \(Self.describe(limit))" : "" }
        switch client {
        case .readTimeout:
            return WebImageError(
                .timedOut, "the transfer of \(url) timed out\(after(configuration.readTimeout)) without data (idle timeout)",
                underlying: client)
        case .connectTimeout:
            return WebImageError(
                .timedOut, "the transfer of \(url) timed out\(after(configuration.timeout)) connecting", underlying: client)
        case .deadlineExceeded:
            let limit = request.timeout ?? configuration.timeout
            return WebImageError(
                .timedOut, "the transfer of \(url) timed out after \(Self.describe(limit)) waiting for the response",
                underlying: client)
        case .tlsHandshakeTimeout:
            return WebImageError(.timedOut, "the transfer of \(url) timed out in the TLS handshake", underlying: client)
        case .writeTimeout, .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return WebImageError(.timedOut, "the transfer of \(url) timed out (\(client))", underlying: client)
        case .cancelled:
            return WebImageError(.cancelled, "the load of \(url) was cancelled", underlying: client)
        case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
            return WebImageError(.invalidURL, "\(url) is not a valid HTTP URL", underlying: client)
        case .remoteConnectionClosed:
            return WebImageError(
                .networkError, "the transfer of \(url) failed: connection closed by the server before the response ended",
                underlying: client)
        default:
            return WebImageError(.networkError, "the transfer of \(url) failed: \(client)", underlying: client)
        }
    }

    /// Why a connection failed, in a few words: `could not resolve host <h>`, `connection
    /// refused`, `TLS: certificate not trusted`, … or the error's own description.
    static func networkCause(of error: any Error) -> String {
        switch error {
        case let connection as NIOConnectionError:
            if connection.connectionErrors.isEmpty {
                return "could not resolve host \(connection.host)"
            }
            let causes = connection.connectionErrors.map { networkCause(of: $0.error) }
            // Every address failed; the most telling cause is a refusal, else the first one.
            return causes.first { $0 == "connection refused" } ?? causes[0]
        case let address as SocketAddressError:
            if case .unknown(let host, _) = address { return "could not resolve host \(host)" }
            return "\(address)"
        case let io as IOError:
            return errnoCause(io.errnoCode) ?? "\(io)"
        case let ssl as NIOSSLError:
            return tlsCause(of: ssl)
        case let ssl as NIOSSLExtraError where ssl == .failedToValidateHostname || ssl == .serverHostnameImpossibleToMatch:
            return "TLS: certificate does not match the host name"
        case let ssl as BoringSSLError:
            return "TLS: handshake failed (\(ssl))"
        case HTTPParserError.invalidEOFState:
            return "connection closed by the server before the response ended"
        case let parser as HTTPParserError:
            return "invalid HTTP response (\(parser))"
        default:
            return "\(error)"
        }
    }

    /// Whether a transfer failed because an established connection was lost: reset, or closed by
    /// the server before the response ended (never a refused connection, DNS or TLS).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        switch error {
        case let client as HTTPClientError:
            return client == .remoteConnectionClosed
        case let io as IOError:
            return io.errnoCode == ECONNRESET || io.errnoCode == EPIPE || io.errnoCode == ECONNABORTED
        case HTTPParserError.invalidEOFState:
            return true
        default:
            return false
        }
    }

    private static func tlsCause(of error: NIOSSLError) -> String {
        guard case .handshakeFailed(let underlying) = error else { return "TLS: \(error)" }
        let text = "\(underlying)"
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return "TLS: certificate not trusted" }
        return "TLS: handshake failed (\(text))"
    }

    private static func errnoCause(_ code: CInt) -> String? {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset by the server"
        case ENETUNREACH: return "network unreachable"
        case EHOSTUNREACH: return "host unreachable"
        case ETIMEDOUT: return "connection timed out"
        default: return nil
        }
    }

    /// `15 s`, `1.5 s`, `300 ms`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        if seconds == 0 { return "\(milliseconds) ms" }
        if milliseconds == 0 { return "\(seconds) s" }
        let fraction = String(String(milliseconds + 1000).dropFirst()).replacingOccurrences(
            of: "0+$", with: "", options: .regularExpression)
        return "\(seconds).\(fraction) s"
    }
}
