import Synchronization

/// Disk-cache stores run after the answer, outside the processing slot, at most `limit` at once:
/// beyond that a store is skipped (the entry is made again on a later miss), so a flood of new
/// sources cannot pile up bytes waiting for the disk.
final class BackgroundWrites: Sendable {
    let limit: Int
    private let pending = Mutex(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `body` in the background unless `limit` stores are pending; returns whether it runs.
    @discardableResult
    func submit(_ body: @escaping @Sendable () async -> Void) -> Bool {
        let admitted = pending.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { return false }
        Task {
            await body()
            pending.withLock { $0 -= 1 }
        }
        return true
    }

    /// Stores not finished yet.
    var count: Int { pending.withLock { $0 } }

    /// Waits until every pending store has finished (at shutdown, before the cache closes).
    func drain() async {
        while count > 0 { try? await Task.sleep(for: .milliseconds(5)) }
    }
}
