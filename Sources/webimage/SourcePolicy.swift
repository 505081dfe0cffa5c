import WebImageKit

/// The SSRF rules of `serve`: the HTTP loader's guard with `--allow-host` and `--deny-host`.
enum SourcePolicy {
    /// `HTTPURLPolicy.ssrfGuard` over the patterns; a bad pattern throws
    /// `invalidServerConfiguration` naming it.
    static func make(allow: [String], deny: [String]) throws -> HTTPURLPolicy {
        func patterns(_ texts: [String], option: String) throws -> [HostPattern] {
            try texts.map { text in
                do {
                    return try HostPattern(text)
                } catch let error as WebImageError {
                    throw WebImageError(.invalidServerConfiguration, "\(option): \(error.message)")
                }
            }
        }
        return .ssrfGuard(allowHosts: try patterns(allow, option: "--allow-host"), denyHosts: try patterns(deny, option: "--deny-host"))
    }
}
