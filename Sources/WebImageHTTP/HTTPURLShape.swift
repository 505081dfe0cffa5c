import Foundation
import WebImage

/// The shape every URL must have before it reaches AsyncHTTPClient, checked for the first
/// request and for every redirect hop: scheme `http` or `https`, a host, and a port in
/// 1…65535 when one is written.
///
/// AsyncHTTPClient hands an unchecked port to NIO, whose `SocketAddress(ipAddress:port:)`
/// converts it with `in_port_t(port)` and traps on an IP literal with a port over 65535
/// (`http://127.0.0.1:99999/`), killing the process. Foundation turns a port too long for an
/// `Int` into nil, which AsyncHTTPClient would then replace with the scheme's default port, so
/// the port is read from the raw authority as written.
enum HTTPURLShape {
    /// The URL exactly as AsyncHTTPClient will parse it (absolute, from its string), or an
    /// `invalidURL` error that says what is wrong.
    static func checked(_ url: URL) throws -> URL {
        let text = url.absoluteString
        guard let parsed = URL(string: text), let components = URLComponents(string: text) else {
            throw WebImageError(.invalidURL, "\(text) is not a valid URL")
        }
        guard let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw WebImageError(
                .invalidURL, "\(text) is not an HTTP URL (scheme \(parsed.scheme ?? "none"); only http and https are loaded)")
        }
        guard let host = parsed.host, !host.isEmpty else {
            throw WebImageError(.invalidURL, "\(text) has no host")
        }
        if let range = components.rangeOfPort {
            let written = text[range]
            // An empty port (`http://host:/`) means the default port.
            if !written.isEmpty {
                guard written.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(written), (1...65_535).contains(port),
                    parsed.port == port
                else {
                    throw WebImageError(.invalidURL, "\(text) has port \(written), outside 1…65535")
                }
            }
        } else if let port = parsed.port, !(1...65_535).contains(port) {
            throw WebImageError(.invalidURL, "\(text) has port \(port), outside 1…65535")
        }
        return parsed
    }

    /// The origin of a checked URL: scheme, host and effective port, lowercased.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
