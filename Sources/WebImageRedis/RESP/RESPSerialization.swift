public import Foundation
public import NIOCore

/// Something that can be a command argument: sent as one RESP bulk string.
///
/// `String` (UTF-8), `Substring`, the integer types, `Double`, `Data`, `[UInt8]` and `ByteBuffer`
/// conform.
public protocol RESPArgument: Sendable {
    /// Writes this argument as a bulk string (`$len\r\n…\r\n`).
    func writeRESP(into buffer: inout ByteBuffer)
}

extension ByteBuffer {
    /// Writes `bytes` as one RESP bulk string.
    mutating func writeBulk(_ bytes: some Collection<UInt8>) {
        writeRESPHeader(UInt8(ascii: "$"), bytes.count)
        writeBytes(bytes)
        writeStaticString("\r\n")
    }

    /// Writes a type byte, a decimal count and CRLF.
    mutating func writeRESPHeader(_ type: UInt8, _ count: Int) {
        writeInteger(type)
        writeString(String(count))
        writeStaticString("\r\n")
    }
}

extension String: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) { buffer.writeBulk(utf8) }
}

extension Substring: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) { buffer.writeBulk(utf8) }
}

extension Int: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) { String(self).writeRESP(into: &buffer) }
}

extension Int64: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) { String(self).writeRESP(into: &buffer) }
}

extension UInt64: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) { String(self).writeRESP(into: &buffer) }
}

extension Double: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) { String(self).writeRESP(into: &buffer) }
}

extension Data: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) {
        buffer.writeRESPHeader(UInt8(ascii: "$"), count)
        buffer.writeBytes(self)
        buffer.writeStaticString("\r\n")
    }
}

extension Array: RESPArgument where Element == UInt8 {
    public func writeRESP(into buffer: inout ByteBuffer) { buffer.writeBulk(self) }
}

extension ByteBuffer: RESPArgument {
    public func writeRESP(into buffer: inout ByteBuffer) {
        buffer.writeRESPHeader(UInt8(ascii: "$"), readableBytes)
        var copy = self
        buffer.writeBuffer(&copy)
        buffer.writeStaticString("\r\n")
    }
}

/// One Redis command: its name and arguments, sent as a RESP array of bulk strings (the form
/// every Redis version accepts).
///
/// ```swift
/// let command = RedisCommand("SET", ["key", Data([1, 2, 3]), "PX", 5000])
/// ```
public struct RedisCommand: Sendable {
    /// The command's name (`GET`, `SET`, …), as given.
    public var name: String
    /// The arguments after the name.
    public var arguments: [any RESPArgument]

    /// A command from its name and arguments.
    public init(_ name: String, _ arguments: [any RESPArgument] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// Writes the command as a RESP array of bulk strings.
    public func write(into buffer: inout ByteBuffer) {
        buffer.writeRESPHeader(UInt8(ascii: "*"), arguments.count + 1)
        name.writeRESP(into: &buffer)
        for argument in arguments { argument.writeRESP(into: &buffer) }
    }
}

extension RESPValue {
    /// Writes the value in its own RESP type (RESP3 types included): what a server sends, for
    /// tests and tools.
    public func write(into buffer: inout ByteBuffer) {
        switch self {
        case .simpleString(let text): line(UInt8(ascii: "+"), text, &buffer)
        case .error(let text): line(UInt8(ascii: "-"), text, &buffer)
        case .integer(let value): line(UInt8(ascii: ":"), String(value), &buffer)
        case .bulkString(nil): buffer.writeStaticString("$-1\r\n")
        case .bulkString(let bytes?): bytes.writeRESP(into: &buffer)
        case .array(nil): buffer.writeStaticString("*-1\r\n")
        case .array(let values?): aggregate(UInt8(ascii: "*"), values, &buffer)
        case .null: buffer.writeStaticString("_\r\n")
        case .double(let value):
            let text = value.isNaN ? "nan" : value.isInfinite ? (value < 0 ? "-inf" : "inf") : String(value)
            line(UInt8(ascii: ","), text, &buffer)
        case .boolean(let value): line(UInt8(ascii: "#"), value ? "t" : "f", &buffer)
        case .bigNumber(let text): line(UInt8(ascii: "("), text, &buffer)
        case .verbatimString(let format, let text):
            buffer.writeRESPHeader(UInt8(ascii: "="), text.readableBytes + 4)
            buffer.writeString(format + ":")
            var copy = text
            buffer.writeBuffer(&copy)
            buffer.writeStaticString("\r\n")
        case .map(let pairs):
            buffer.writeRESPHeader(UInt8(ascii: "%"), pairs.count)
            for pair in pairs {
                pair.key.write(into: &buffer)
                pair.value.write(into: &buffer)
            }
        case .set(let values): aggregate(UInt8(ascii: "~"), values, &buffer)
        case .push(let values): aggregate(UInt8(ascii: ">"), values, &buffer)
        }
    }

    private func line(_ type: UInt8, _ text: String, _ buffer: inout ByteBuffer) {
        buffer.writeInteger(type)
        buffer.writeString(text)
        buffer.writeStaticString("\r\n")
    }

    private func aggregate(_ type: UInt8, _ values: [RESPValue], _ buffer: inout ByteBuffer) {
        buffer.writeRESPHeader(type, values.count)
        for value in values { value.write(into: &buffer) }
    }
}
