import Hummingbird

extension Request {
    /// The request target's path as the client sent it (percent-encoding kept), without its
    /// query, and whether a query followed it.
    ///
    /// Image URLs are read from this, not from the router's parameters: their `plain` sources
    /// are percent-encoded, and signatures cover the encoded form.
    var rawPath: (path: Substring, hasQuery: Bool) {
        let target = head.path ?? "/"
        guard let question = target.firstIndex(of: "?") else { return (target[...], false) }
        return (target[..<question], true)
    }
}
