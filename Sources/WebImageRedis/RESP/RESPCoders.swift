import NIOCore

/// The inbound half of the protocol as a NIO decoder: bytes in, whole ``RESPValue``s out, however
/// the bytes were split into reads.
struct RESPValueDecoder: ByteToMessageDecoder {
    typealias InboundOut = RESPValue

    var parser = RESPParser()

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let value = try parser.parse(&buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(value))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}

/// The outbound half: ``RedisCommand``s in, RESP arrays of bulk strings out.
struct RedisCommandEncoder: MessageToByteEncoder {
    typealias OutboundIn = RedisCommand

    func encode(data: RedisCommand, out: inout ByteBuffer) throws {
        data.write(into: &out)
    }
}
