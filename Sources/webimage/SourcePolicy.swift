import WebImageKit

/// The SSRF rules of `serve` from `--allow-host` and `--deny-host`: the loader's SSRF guard
/// (private, loopback, link-local and the like refused unless a pattern allows them).
enum SourcePolicy {
    static func make(allow: [String], deny: [String]) throws -> HTTPURLPolicy? {
        do {
            return .ssrfGuard(allowHosts: try allow.map(HostPattern.init), denyHosts: try deny.map(HostPattern.init))
        } catch {
            throw WebImageError(.invalidServerConfiguration, "--allow-host/--deny-host: \(failureMessage(error))")
        }
    }
}
