public import Foundation
public import NIOCore

/// A scripted HTTP response: status, headers, and a body made of steps (bytes, pauses, gates,
/// a close, a hang) that the ``LoopbackHTTPServer`` plays in order.
///
/// ```swift
/// let response = TestResponse.ok(bytes, contentType: "image/png")          // one write
/// let slow = TestResponse.chunked(bytes, chunkSize: 1024, pause: .milliseconds(5))
/// let broken = TestResponse.closingMidBody(bytes, after: 500)            // declares all, sends 500
/// ```
public struct TestResponse: Sendable {
    /// One step of the body.
    public enum Step: Sendable {
        /// Send these bytes as one body part.
        case bytes(ByteBuffer)
        /// Wait this long before the next step.
        case pause(Duration)
        /// Wait until the gate opens.
        case wait(TestGate)
        /// Close the connection now, mid-body.
        case close
        /// Never go on (until the client disconnects or the server shuts down).
        case hang
    }

    /// How the body length is declared.
    public enum Length: Sendable, Hashable {
        /// `Content-Length` of the bytes steps when the body has no close or hang; chunked otherwise.
        case automatic
        /// Chunked transfer encoding, no `Content-Length`.
        case chunked
        /// This `Content-Length`, whatever is sent.
        case declared(Int)
    }

    /// The HTTP status.
    public var status: Int
    /// Response headers, in order.
    public var headers: [(String, String)]
    /// The body steps, in order.
    public var body: [Step]
    /// How the body length is declared.
    public var length: Length
    /// Steps played before the head is sent (pauses, gates, a hang; bytes are ignored here).
    public var beforeHead: [Step]

    /// A response from explicit parts.
    public init(
        status: Int = 200, headers: [(String, String)] = [], body: [Step] = [], length: Length = .automatic,
        beforeHead: [Step] = []
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.length = length
        self.beforeHead = beforeHead
    }

    /// The bytes as body steps of at most `chunkSize` bytes, with `pause` between them.
    public static func steps(_ data: Data, chunkSize: Int = 64 * 1024, pause: Duration = .zero) -> [Step] {
        var steps: [Step] = []
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + max(1, chunkSize))
            if offset > 0, pause > .zero { steps.append(.pause(pause)) }
            steps.append(.bytes(ByteBuffer(bytes: data[data.startIndex + offset..<data.startIndex + end])))
            offset = end
        }
        return steps
    }

    /// `200` with the bytes and a content type.
    public static func ok(_ data: Data, contentType: String = "image/png", headers: [(String, String)] = []) -> TestResponse {
        TestResponse(status: 200, headers: [("Content-Type", contentType)] + headers, body: steps(data))
    }

    /// `200` with the bytes in chunks of `chunkSize`, `pause` apart (chunked encoding unless
    /// `length` says otherwise).
    public static func chunked(
        _ data: Data, chunkSize: Int, pause: Duration = .zero, contentType: String = "image/png",
        length: Length = .chunked
    ) -> TestResponse {
        TestResponse(
            status: 200, headers: [("Content-Type", contentType)],
            body: steps(data, chunkSize: chunkSize, pause: pause), length: length)
    }

    /// A slow trickle: `bytesPerStep` bytes every `interval`, with a declared length.
    public static func trickle(_ data: Data, bytesPerStep: Int, interval: Duration) -> TestResponse {
        chunked(data, chunkSize: bytesPerStep, pause: interval, length: .declared(data.count))
    }

    /// Nothing ever, not even the head: for response timeout tests.
    public static let hanging = TestResponse(beforeHead: [.hang])

    /// The head, then nothing ever: for idle-read timeout tests.
    public static func hangingAfterHead(contentLength: Int = 1000) -> TestResponse {
        TestResponse(status: 200, headers: [("Content-Type", "image/png")], body: [.hang], length: .declared(contentLength))
    }

    /// Declares the whole length, sends `after` bytes, then closes the connection.
    public static func closingMidBody(_ data: Data, after: Int) -> TestResponse {
        TestResponse(
            status: 200, headers: [("Content-Type", "image/png")],
            body: steps(data.prefix(after)) + [.close], length: .declared(data.count))
    }

    /// A status with a short text body.
    public static func status(_ code: Int, _ text: String = "", headers: [(String, String)] = []) -> TestResponse {
        TestResponse(
            status: code, headers: [("Content-Type", "text/plain")] + headers,
            body: text.isEmpty ? [] : [.bytes(ByteBuffer(string: text))])
    }

    /// A redirect to `location` (a path on this server or an absolute URL).
    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: [("Location", location)], length: .declared(0))
    }

    /// The body steps' byte count.
    var byteCount: Int {
        body.reduce(0) { total, step in
            if case .bytes(let buffer) = step { return total + buffer.readableBytes }
            return total
        }
    }

    /// Whether the body ends early on purpose.
    var endsEarly: Bool {
        body.contains { step in
            switch step {
            case .close, .hang: true
            default: false
            }
        }
    }
}
