import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request head has not fully arrived within `timeout`: from the
/// moment the connection opens, and again from the end of each response.
///
/// An idle timeout alone does not stop a client that sends its headers a byte at a time (each
/// byte resets it): 19,950 such connections were held open at once. This deadline runs from the
/// start of the wait, whatever trickles in, and is met only by a complete request head.
///
/// One timer per connection, not one per request: a response's end only notes when the wait
/// began, and the timer, when it fires, closes the connection if a wait has lasted `timeout` or
/// sets itself again for the wait now running. A cached answer then costs no scheduled task, no
/// closure and no cancellation on the event loop.
final class HeaderTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    /// When the wait for the next request head began; nil while a request is being answered.
    private var waitingSince: NIODeadline?
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startWaiting(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startWaiting(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { waitingSince = nil }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The response is complete: the wait for the next request head starts.
        if case .end = unwrapOutboundIn(data) { startWaiting(context) }
        context.write(data, promise: promise)
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        waitingSince = now
        if timer == nil { schedule(context, at: now + timeout) }
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.fire(context)
        }
    }

    /// The timer: closes a connection that has waited `timeout` for a head, else follows the
    /// wait now running (a request being answered sets no timer; its response's end does).
    private func fire(_ context: ChannelHandlerContext) {
        timer = nil
        guard let since = waitingSince else { return }
        let deadline = since + timeout
        if NIODeadline.now() >= deadline {
            context.close(promise: nil)
        } else {
            schedule(context, at: deadline)
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        waitingSince = nil
    }
}
