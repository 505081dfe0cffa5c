import Logging
import Synchronization

/// Disk-cache stores run after the answer, outside the processing slot, at most `limit` at once:
/// beyond that a store is skipped (the entry is made again on a later miss), so a flood of new
/// sources cannot pile up bytes waiting for the disk. A store that fails (a full disk, a cache
/// directory gone) costs only that entry: the service goes on, counting each failure in
/// `webimage_cache_write_failures_total` and logging a warning at most once a minute.
final class BackgroundWrites: Sendable {
    let limit: Int
    private let pending = Mutex(0)
    private let metrics: ServiceMetrics
    private let logger: Logger
    private let lastWarning = Mutex<ContinuousClock.Instant?>(nil)

    init(limit: Int, metrics: ServiceMetrics, logger: Logger) {
        self.limit = max(1, limit)
        self.metrics = metrics
        self.logger = logger
    }

    /// Runs `body` in the background unless `limit` stores are pending; returns whether it runs.
    @discardableResult
    func submit(_ body: @escaping @Sendable () async throws -> Void) -> Bool {
        let admitted = pending.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { return false }
        Task {
            do {
                try await body()
            } catch {
                failed(error)
            }
            pending.withLock { $0 -= 1 }
        }
        return true
    }

    private func failed(_ error: any Error) {
        metrics.cacheWriteFailures.increment()
        let now = ContinuousClock.now
        let warn = lastWarning.withLock { last in
            guard last.map({ now - $0 >= .seconds(60) }) ?? true else { return false }
            last = now
            return true
        }
        if warn { logger.warning("a cache store failed, serving on without it (a full disk?): \(error)") }
    }

    /// Stores not finished yet.
    var count: Int { pending.withLock { $0 } }

    /// Waits until every pending store has finished (at shutdown, before the cache closes).
    func drain() async {
        while count > 0 { try? await Task.sleep(for: .milliseconds(5)) }
    }
}
