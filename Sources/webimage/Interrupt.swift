import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM handling: the first signal cancels the work, which unwinds through
/// Swift cancellation (downloads stop, cache writes finish or never start); a second one exits at once.
enum Interrupt {
    /// Runs `work` until it returns or a signal cancels it; returns whether a signal came.
    static func run(
        onInterrupt: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable () async -> Void
    ) async -> Bool {
        let task = Task { await work() }
        let signals = Mutex(0)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let count = signals.withLock { count in
                    count += 1
                    return count
                }
                if count == 1 {
                    onInterrupt()
                    task.cancel()
                } else {
                    Terminal.err(Terminal.Escape.showCursor + "\nwebimage: interrupted again, exiting now\n")
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
        await task.value
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        return signals.withLock { $0 } > 0
    }
}
