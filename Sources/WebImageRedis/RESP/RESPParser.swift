import NIOCore
import WebImage

/// Parses RESP2/RESP3 values from a byte buffer that may hold part of a value, several values, or
/// values split anywhere (a packet boundary in a length line or inside a payload).
///
/// ``parse(_:)`` either consumes one whole value or leaves the buffer untouched and returns `nil`;
/// malformed input and values past the limits throw ``WebImageError/Code/redisProtocol``. A bulk
/// length is checked against ``Limits/maxBulkLength`` before anything waits for or copies it.
struct RESPParser: Sendable {
    /// What the parser accepts.
    struct Limits: Sendable {
        /// The largest bulk string, verbatim string or bulk error (Redis's `proto-max-bulk-len`: 512 MiB).
        var maxBulkLength = 512 << 20
        /// The largest element count of one array, set, map or push.
        var maxAggregateCount = 1 << 24
        /// How deeply aggregates may nest.
        var maxDepth = 64
        /// The longest simple line (status, error, number).
        var maxLineLength = 64 << 10
    }

    var limits = Limits()

    /// One whole value from the front of `buffer` (consumed), or `nil` when more bytes are needed.
    func parse(_ buffer: inout ByteBuffer) throws -> RESPValue? {
        var cursor = buffer
        guard let value = try parseValue(&cursor, depth: 0) else { return nil }
        buffer = cursor
        return value
    }

    private func parseValue(_ buffer: inout ByteBuffer, depth: Int) throws -> RESPValue? {
        guard depth <= limits.maxDepth else { throw WebImageError.redisProtocol("aggregates nested deeper than \(limits.maxDepth)") }
        guard let type = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        var body = buffer
        body.moveReaderIndex(forwardBy: 1)
        guard let line = try readLine(&body) else { return nil }
        let value: RESPValue
        switch type {
        case UInt8(ascii: "+"): value = .simpleString(line)
        case UInt8(ascii: "-"): value = .error(line)
        case UInt8(ascii: ":"): value = .integer(try number(line))
        case UInt8(ascii: "$"):
            guard let bytes = try readBulk(&body, lengthLine: line, nullable: true) else {
                if line == "-1" { value = .bulkString(nil); break }
                return nil
            }
            value = .bulkString(bytes)
        case UInt8(ascii: "!"):
            guard let bytes = try readBulk(&body, lengthLine: line, nullable: false) else { return nil }
            value = .error(String(buffer: bytes))
        case UInt8(ascii: "="):
            guard var bytes = try readBulk(&body, lengthLine: line, nullable: false) else { return nil }
            guard bytes.readableBytes >= 4, let format = bytes.readString(length: 3), bytes.readInteger(as: UInt8.self) == UInt8(ascii: ":")
            else { throw WebImageError.redisProtocol("a verbatim string without its `fmt:` prefix") }
            value = .verbatimString(format: format, text: bytes)
        case UInt8(ascii: "*"):
            if line == "-1" { value = .array(nil); break }
            guard let elements = try readElements(&body, count: try count(line), depth: depth) else { return nil }
            value = .array(elements)
        case UInt8(ascii: "~"), UInt8(ascii: ">"):
            guard let elements = try readElements(&body, count: try count(line), depth: depth) else { return nil }
            value = type == UInt8(ascii: "~") ? .set(elements) : .push(elements)
        case UInt8(ascii: "%"), UInt8(ascii: "|"):
            let pairs = try count(line)
            guard pairs <= limits.maxAggregateCount / 2 else { throw tooMany(pairs) }
            guard let flat = try readElements(&body, count: pairs * 2, depth: depth) else { return nil }
            if type == UInt8(ascii: "|") {
                // An attribute annotates the value that follows it; the annotation is dropped.
                guard let annotated = try parseValue(&body, depth: depth) else { return nil }
                buffer = body
                return annotated
            }
            value = .map(stride(from: 0, to: flat.count, by: 2).map { RESPPair(key: flat[$0], value: flat[$0 + 1]) })
        case UInt8(ascii: "_"):
            guard line.isEmpty else { throw WebImageError.redisProtocol("a null with a payload") }
            value = .null
        case UInt8(ascii: "#"):
            guard line == "t" || line == "f" else { throw WebImageError.redisProtocol("boolean `\(line)`") }
            value = .boolean(line == "t")
        case UInt8(ascii: ","): value = .double(try double(line))
        case UInt8(ascii: "("):
            let digits = line.hasPrefix("-") || line.hasPrefix("+") ? line.dropFirst() : Substring(line)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { throw WebImageError.redisProtocol("big number `\(line)`") }
            value = .bigNumber(line)
        default:
            throw WebImageError.redisProtocol("unknown type byte 0x\(String(type, radix: 16))")
        }
        buffer = body
        return value
    }

    /// The text up to CRLF (consumed with it), or `nil` when the CRLF has not arrived.
    private func readLine(_ buffer: inout ByteBuffer) throws -> String? {
        let view = buffer.readableBytesView
        guard let cr = view.firstIndex(of: UInt8(ascii: "\r")) else {
            if view.count > limits.maxLineLength { throw WebImageError.redisProtocol("a line longer than \(limits.maxLineLength) bytes") }
            return nil
        }
        let length = cr - view.startIndex
        guard length <= limits.maxLineLength else { throw WebImageError.redisProtocol("a line longer than \(limits.maxLineLength) bytes") }
        guard buffer.readableBytes > length + 1 else { return nil }
        guard buffer.getInteger(at: cr + 1, as: UInt8.self) == UInt8(ascii: "\n") else {
            throw WebImageError.redisProtocol("CR without LF")
        }
        let line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 2)
        return line
    }

    /// A length-prefixed payload and its CRLF; `nil` for `-1` when `nullable` or when incomplete.
    private func readBulk(_ buffer: inout ByteBuffer, lengthLine: String, nullable: Bool) throws -> ByteBuffer? {
        if nullable, lengthLine == "-1" { return nil }
        guard let length = Int(lengthLine), length >= 0 else { throw WebImageError.redisProtocol("bulk length `\(lengthLine)`") }
        guard length <= limits.maxBulkLength else {
            throw WebImageError.redisProtocol("a bulk string of \(length) bytes, over the \(limits.maxBulkLength)-byte limit")
        }
        guard buffer.readableBytes >= length + 2 else { return nil }
        let payload = buffer.readSlice(length: length)
        guard buffer.readInteger(as: UInt8.self) == UInt8(ascii: "\r"), buffer.readInteger(as: UInt8.self) == UInt8(ascii: "\n") else {
            throw WebImageError.redisProtocol("a bulk string not followed by CRLF")
        }
        return payload
    }

    private func readElements(_ buffer: inout ByteBuffer, count: Int, depth: Int) throws -> [RESPValue]? {
        var elements: [RESPValue] = []
        for _ in 0..<count {
            guard let element = try parseValue(&buffer, depth: depth + 1) else { return nil }
            elements.append(element)
        }
        return elements
    }

    private func count(_ line: String) throws -> Int {
        guard let count = Int(line), count >= 0 else { throw WebImageError.redisProtocol("aggregate count `\(line)`") }
        guard count <= limits.maxAggregateCount else { throw tooMany(count) }
        return count
    }

    private func tooMany(_ count: Int) -> WebImageError {
        WebImageError.redisProtocol("an aggregate of \(count) elements, over the \(limits.maxAggregateCount) limit")
    }

    private func number(_ line: String) throws -> Int64 {
        guard let value = Int64(line) else { throw WebImageError.redisProtocol("integer `\(line)`") }
        return value
    }

    private func double(_ line: String) throws -> Double {
        switch line {
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        case "nan", "-nan": return .nan
        default:
            guard let value = Double(line) else { throw WebImageError.redisProtocol("double `\(line)`") }
            return value
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
