import Foundation
import NIOCore
import NIOEmbedded
import Testing
import WebImage
import WebImageTesting
@testable import WebImageRedis

/// The RESP codec on hand-built bytes: every RESP2 and RESP3 type, nesting, nulls, errors, values
/// split at every byte, big bulk strings, and the limits.
@Suite struct RESPCodecTests {
    private func parseAll(_ text: String) throws -> [RESPValue] {
        try parseAll(Array(text.utf8))
    }

    private func parseAll(_ bytes: [UInt8]) throws -> [RESPValue] {
        var buffer = ByteBuffer(bytes: bytes)
        var values: [RESPValue] = []
        while let value = try RESPParser().parse(&buffer) { values.append(value) }
        #expect(buffer.readableBytes == 0, "bytes left over")
        return values
    }

    private func bulk(_ text: String) -> RESPValue { .bulkString(ByteBuffer(string: text)) }

    @Test func resp2Types() throws {
        let values = try parseAll("+OK\r\n-ERR unknown command 'x'\r\n:42\r\n:-7\r\n$5\r\nhello\r\n$0\r\n\r\n$-1\r\n*-1\r\n*0\r\n")
        #expect(values == [
            .simpleString("OK"), .error("ERR unknown command 'x'"), .integer(42), .integer(-7), bulk("hello"), bulk(""),
            .bulkString(nil), .array(nil), .array([]),
        ])
        #expect(values[6].isNull && values[7].isNull && !values[8].isNull)
    }

    @Test func nestedArraysWithNullsAndErrors() throws {
        let values = try parseAll("*3\r\n*3\r\n:1\r\n:2\r\n:3\r\n*2\r\n+Foo\r\n-Bar\r\n*2\r\n$-1\r\n*1\r\n*0\r\n")
        #expect(values == [
            .array([
                .array([.integer(1), .integer(2), .integer(3)]),
                .array([.simpleString("Foo"), .error("Bar")]),
                .array([.bulkString(nil), .array([.array([])])]),
            ])
        ])
    }

    @Test func resp3Types() throws {
        let text = "%2\r\n+first\r\n:1\r\n$6\r\nsecond\r\n,2.5\r\n" + "~3\r\n+a\r\n:1\r\n#f\r\n" + "_\r\n" + "#t\r\n"
            + ",inf\r\n,-inf\r\n,-1.25e3\r\n" + "(3492890328409238509324850943850943825024385\r\n"
            + "=15\r\ntxt:Some string\r\n" + "!21\r\nSYNTAX invalid syntax\r\n" + ">2\r\n+message\r\n$2\r\nhi\r\n"
        let values = try parseAll(text)
        #expect(values == [
            .map([RESPPair(key: .simpleString("first"), value: .integer(1)), RESPPair(key: bulk("second"), value: .double(2.5))]),
            .set([.simpleString("a"), .integer(1), .boolean(false)]),
            .null, .boolean(true), .double(.infinity), .double(-.infinity), .double(-1250),
            .bigNumber("3492890328409238509324850943850943825024385"),
            .verbatimString(format: "txt", text: ByteBuffer(string: "Some string")),
            .error("SYNTAX invalid syntax"),
            .push([.simpleString("message"), bulk("hi")]),
        ])
        guard case .double(let nan) = try parseAll(",nan\r\n")[0] else { Issue.record("nan is not a double"); return }
        #expect(nan.isNaN)
        #expect(values[0].elements?.count == 4)
    }

    /// An attribute annotates the next value; the parser returns that value.
    @Test func attributesAreSkipped() throws {
        let text = "|1\r\n+key-popularity\r\n%2\r\n$1\r\na\r\n,0.1923\r\n$1\r\nb\r\n,0.0012\r\n*2\r\n:2039123\r\n:9543892\r\n"
        #expect(try parseAll(text) == [.array([.integer(2039123), .integer(9543892)])])
    }

    /// Every split point of a stream of mixed values gives the same values through the NIO decoder.
    @Test func splitAtEveryByte() throws {
        let text = "*2\r\n$3\r\nfoo\r\n%1\r\n+k\r\n~2\r\n:1\r\n_\r\n" + "$10\r\nab\r\ncd\r\nef\r\n" + ",3.5\r\n-ERR x\r\n"
        let bytes = Array(text.utf8)
        let expected = try parseAll(bytes)
        #expect(expected.count == 4)
        for split in 1..<bytes.count {
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPValueDecoder()))
            try channel.writeInbound(ByteBuffer(bytes: bytes[..<split]))
            try channel.writeInbound(ByteBuffer(bytes: bytes[split...]))
            var got: [RESPValue] = []
            while let value = try channel.readInbound(as: RESPValue.self) { got.append(value) }
            #expect(got == expected, "split at \(split)")
            _ = try channel.finish()
        }
        // And one byte at a time.
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPValueDecoder()))
        for byte in bytes { try channel.writeInbound(ByteBuffer(bytes: [byte])) }
        var got: [RESPValue] = []
        while let value = try channel.readInbound(as: RESPValue.self) { got.append(value) }
        #expect(got == expected)
    }

    /// A 5 MB binary bulk string (CRLFs inside) in uneven packets, then a value after it.
    @Test func bigBulkString() throws {
        var payload = [UInt8](repeating: 0, count: 5 << 20)
        var generator = SplitMix64(seed: 7)
        for index in payload.indices { payload[index] = UInt8(truncatingIfNeeded: generator.next()) }
        payload[100] = 13
        payload[101] = 10
        var message = Array("$\(payload.count)\r\n".utf8) + payload + Array("\r\n:1\r\n".utf8)
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(RESPValueDecoder()))
        var offset = 0
        for size in [3, 70_000, 1 << 20, 3 << 20] where offset < message.count {
            let end = min(message.count, offset + size)
            try channel.writeInbound(ByteBuffer(bytes: message[offset..<end]))
            offset = end
        }
        try channel.writeInbound(ByteBuffer(bytes: message[offset...]))
        message.removeAll()
        #expect(try channel.readInbound(as: RESPValue.self) == .bulkString(ByteBuffer(bytes: payload)))
        #expect(try channel.readInbound(as: RESPValue.self) == .integer(1))
        _ = try channel.finish()
    }

    @Test func incompleteInputWaits() throws {
        for partial in ["", "+OK", "+OK\r", "$5\r\nhel", "$5\r\nhello\r", "*2\r\n:1\r\n", "%1\r\n+k\r\n", "|1\r\n+a\r\n+b\r\n"] {
            var buffer = ByteBuffer(string: partial)
            #expect(try RESPParser().parse(&buffer) == nil, "\(partial.debugDescription)")
            #expect(buffer.readableBytes == partial.utf8.count, "consumed part of \(partial.debugDescription)")
        }
    }

    @Test func malformedInputThrowsProtocolErrors() throws {
        let bad = [
            "?x\r\n", ":abc\r\n", "$-2\r\n", "*x\r\n", "+OK\rX", "$3\r\nabcXY", "#x\r\n", ",one\r\n", "(12a\r\n", "_x\r\n",
            "=3\r\ntxt\r\n", "$600000000\r\n",
        ]
        for text in bad {
            var buffer = ByteBuffer(string: text)
            #expect(throws: WebImageError.self, "\(text.debugDescription)") { try RESPParser().parse(&buffer) }
            buffer = ByteBuffer(string: text)
            do {
                _ = try RESPParser().parse(&buffer)
            } catch let error as WebImageError {
                #expect(error.code == .redisProtocol, "\(text.debugDescription): \(error)")
            }
        }
        var deep = ByteBuffer(string: String(repeating: "*1\r\n", count: 100) + ":1\r\n")
        #expect(throws: WebImageError.self) { try RESPParser().parse(&deep) }
        var tooMany = ByteBuffer(string: "*99999999999\r\n")
        #expect(throws: WebImageError.self) { try RESPParser().parse(&tooMany) }
        var longLine = ByteBuffer(string: "+" + String(repeating: "a", count: 70_000))
        #expect(throws: WebImageError.self) { try RESPParser().parse(&longLine) }
    }

    @Test func serialiseAndParseBack() throws {
        let values: [RESPValue] = [
            .simpleString("PONG"), .error("ERR no"), .integer(-12), bulk("a\r\nb"), .bulkString(nil), .array(nil),
            .array([.integer(1), .array([bulk("x"), .null])]), .null, .double(0.5), .double(-.infinity), .boolean(true),
            .bigNumber("-123456789012345678901234567890"), .verbatimString(format: "mkd", text: ByteBuffer(string: "# hi")),
            .map([RESPPair(key: bulk("k"), value: .set([.integer(3)]))]), .push([.simpleString("invalidate")]),
        ]
        var buffer = ByteBuffer()
        for value in values { value.write(into: &buffer) }
        var parsed: [RESPValue] = []
        while let value = try RESPParser().parse(&buffer) { parsed.append(value) }
        #expect(parsed == values)
    }

    @Test func commandsAreArraysOfBulkStrings() {
        var buffer = ByteBuffer()
        RedisCommand("SET", ["k", Data([0, 13, 10]), 5, ByteBuffer(string: "b"), [UInt8](arrayLiteral: 1)]).write(into: &buffer)
        let expected = Array("*6\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n".utf8) + [0, 13, 10]
            + Array("\r\n$1\r\n5\r\n$1\r\nb\r\n$1\r\n".utf8) + [1] + Array("\r\n".utf8)
        #expect(Array(buffer.readableBytesView) == expected)
    }
}

