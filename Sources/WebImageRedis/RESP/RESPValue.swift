public import NIOCore

/// One value of the Redis serialisation protocol, RESP2 and RESP3 (`HELLO 3`).
///
/// RESP2 has simple strings, errors, integers, bulk strings and arrays (both possibly null);
/// RESP3 adds null, doubles, booleans, big numbers, verbatim strings, bulk errors, maps, sets,
/// attributes and out-of-band pushes. Bulk payloads stay in `ByteBuffer`s (binary-safe, no copy).
///
/// ```swift
/// let reply = try await client.send("GET", "k")
/// if case .bulkString(let bytes?) = reply { print(bytes.readableBytes) }
/// ```
public enum RESPValue: Sendable, Hashable {
    /// `+OK`: a short status line.
    case simpleString(String)
    /// `-ERR …` or RESP3's `!len` bulk error: the server refused the command.
    case error(String)
    /// `:42`.
    case integer(Int64)
    /// `$len` bytes, or `$-1` (RESP2's null bulk string): `nil`.
    case bulkString(ByteBuffer?)
    /// `*count` values, or `*-1` (RESP2's null array): `nil`.
    case array([RESPValue]?)
    /// RESP3's `_`.
    case null
    /// RESP3's `,1.5` (`inf`, `-inf` and `nan` included).
    case double(Double)
    /// RESP3's `#t` / `#f`.
    case boolean(Bool)
    /// RESP3's `(` big number, kept as its decimal text.
    case bigNumber(String)
    /// RESP3's `=len` verbatim string: a three-letter format (`txt`, `mkd`) and the text.
    case verbatimString(format: String, text: ByteBuffer)
    /// RESP3's `%count` key-value pairs, in the server's order.
    case map([RESPPair])
    /// RESP3's `~count` unordered values.
    case set([RESPValue])
    /// RESP3's `>count` out-of-band message (client tracking, pub/sub); never a command's reply.
    case push([RESPValue])

    /// The value as text: simple, bulk and verbatim strings, integers, doubles and big numbers.
    public var string: String? {
        switch self {
        case .simpleString(let text), .bigNumber(let text): text
        case .bulkString(let bytes?): String(buffer: bytes)
        case .verbatimString(_, let text): String(buffer: text)
        case .integer(let value): String(value)
        case .double(let value): String(value)
        default: nil
        }
    }

    /// The value's bytes: bulk and verbatim strings, and simple strings as UTF-8.
    public var bytes: [UInt8]? {
        switch self {
        case .bulkString(let bytes?), .verbatimString(_, let bytes): Array(bytes.readableBytesView)
        case .simpleString(let text): Array(text.utf8)
        default: nil
        }
    }

    /// The value as an integer: integers, and strings holding one.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return string.flatMap { Int64($0) }
    }

    /// The elements of an array, set or push; a map's keys and values, interleaved.
    public var elements: [RESPValue]? {
        switch self {
        case .array(let values?), .set(let values), .push(let values): values
        case .map(let pairs): pairs.flatMap { [$0.key, $0.value] }
        default: nil
        }
    }

    /// Whether the value is a null of either protocol (`$-1`, `*-1`, `_`).
    public var isNull: Bool {
        switch self {
        case .null, .bulkString(nil), .array(nil): true
        default: false
        }
    }
}

/// One key-value pair of a RESP3 map (``RESPValue/map(_:)``).
public struct RESPPair: Sendable, Hashable {
    /// The key.
    public var key: RESPValue
    /// The value.
    public var value: RESPValue

    /// A pair.
    public init(key: RESPValue, value: RESPValue) {
        self.key = key
        self.value = value
    }
}
