public import Foundation

/// A request as the ``LoopbackHTTPServer`` received it.
public struct RecordedRequest: Sendable {
    /// Its position among all requests the server received, from 0.
    public var index: Int
    /// The method (`GET`, …).
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The request target as sent (path and query).
    public var target: String
    /// The headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data

    /// The first value of a header (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The user and password of a basic `Authorization` header.
    public var basicCredentials: (user: String, password: String)? {
        guard let value = header("Authorization"), value.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(value.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return (String(decoded[..<colon]), String(decoded[decoded.index(after: colon)...]))
    }
}

/// How the server's answer to one request ended.
public enum ResponseOutcome: Sendable, Hashable {
    /// Every step was sent.
    case completed
    /// The script closed the connection (a ``TestResponse/Step/close`` step).
    case closedByServer
    /// The client closed the connection before the script ended.
    case clientDisconnected
}

/// What the server has seen so far.
public struct ServerLog: Sendable {
    /// Every request, in arrival order.
    public var requests: [RecordedRequest] = []
    /// How each finished response ended, with its request's path, in the order they ended.
    public var outcomes: [(path: String, outcome: ResponseOutcome)] = []

    /// Requests received for `path`.
    public func count(_ path: String) -> Int { requests.lazy.filter { $0.path == path }.count }

    /// The outcomes of `path`'s responses.
    public func outcomes(_ path: String) -> [ResponseOutcome] { outcomes.filter { $0.path == path }.map(\.outcome) }
}
