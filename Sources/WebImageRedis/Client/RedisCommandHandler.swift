import NIOCore
import WebImage

/// A command on its way out, with the promise its reply completes.
struct RedisRequest: Sendable {
    var command: RedisCommand
    var reply: EventLoopPromise<RESPValue>
}

/// Matches replies to commands in order: every command written appends its promise, every reply
/// read completes the oldest (RESP answers in order, so any number may be in flight: pipelining).
/// Out-of-band RESP3 pushes are not replies and are dropped. When the connection closes or fails,
/// every waiting command fails with the cause.
final class RedisCommandHandler: ChannelDuplexHandler {
    typealias InboundIn = RESPValue
    typealias OutboundIn = RedisRequest
    typealias OutboundOut = RedisCommand

    private var pending = CircularBuffer<EventLoopPromise<RESPValue>>()
    private var closedError: WebImageError?
    private let address: String

    init(address: String) { self.address = address }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let closedError {
            request.reply.fail(closedError)
            promise?.fail(closedError)
            return
        }
        pending.append(request.reply)
        context.write(wrapOutboundOut(request.command), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let value = unwrapInboundIn(data)
        if case .push = value { return }
        guard let reply = pending.popFirst() else {
            fail(context: context, WebImageError.redisProtocol("a reply from \(address) that no command asked for"))
            return
        }
        reply.succeed(value)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failPending(WebImageError(.redisUnavailable, "the connection to Redis at \(address) closed"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let failure = (error as? WebImageError)
            ?? WebImageError(.redisUnavailable, "the connection to Redis at \(address) failed: \(error)", underlying: SendableErrorText(error))
        fail(context: context, failure)
    }

    /// Fails every waiting command with `error` and closes: after a timeout or a protocol error
    /// the order of later replies can no longer be trusted.
    func fail(context: ChannelHandlerContext, _ error: WebImageError) {
        failPending(error)
        context.close(promise: nil)
    }

    private func failPending(_ error: WebImageError) {
        if closedError == nil { closedError = error }
        while let reply = pending.popFirst() { reply.fail(error) }
    }
}

/// The description of a non-Sendable error, kept as a Sendable `underlying` cause.
struct SendableErrorText: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = String(describing: error) }
}
