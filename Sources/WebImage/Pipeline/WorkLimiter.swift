import Synchronization

/// Admission for heavy work: at most ``limit`` bodies at once and, with a memory budget, only as
/// many as fit in it by their estimated peak; the others wait in FIFO order, at most
/// ``queueLimit`` of them. Admitted bodies run on a ``BlockingWorkExecutor``, never on the
/// cooperative pool.
///
/// The manager decodes and transforms through one, so that a burst of requests never runs more
/// codec work than there are cores; `webimage serve` renders through one with a memory budget.
///
/// ```swift
/// let limiter = WorkLimiter(limit: 2, memoryBudget: 512 << 20, queueLimit: 64)
/// let image = try await limiter.run(weight: estimatedPeakBytes) { try coders.decode(data) }
/// ```
///
/// - A caller cancelled while waiting leaves the queue with `CancellationError`.
/// - A full queue throws ``WebImageError/Code/overloaded``.
/// - A weight larger than the whole budget throws ``WebImageError/Code/tooLarge`` at once: it
///   could never be admitted.
public final class WorkLimiter: Sendable {
    private struct Waiter {
        var id: Int
        var weight: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var weight = 0
        var nextID = 0
        var waiters: [Waiter] = []
        /// Counts every admission, so that an idle timer knows whether work came in meanwhile.
        var admissions = 0
    }

    /// The most bodies running at once.
    public let limit: Int
    /// The most estimated bytes admitted at once (`nil`: no memory bound).
    public let memoryBudget: Int?
    /// The most callers waiting (`nil`: no bound).
    public let queueLimit: Int?
    /// Where admitted bodies run.
    public let executor: BlockingWorkExecutor
    /// After how long without work the limiter gives memory back (``MemoryReclaim/now()``), or
    /// nil for never.
    public let reclaimsMemoryAfterIdle: Duration?
    private let state = Mutex(State())

    /// A limiter admitting `limit` bodies at once (at least 1), within `memoryBudget` bytes of
    /// estimated weight, with at most `queueLimit` waiting.
    public init(
        limit: Int, memoryBudget: Int? = nil, queueLimit: Int? = nil, executor: BlockingWorkExecutor = .shared,
        reclaimsMemoryAfterIdle: Duration? = nil
    ) {
        self.reclaimsMemoryAfterIdle = reclaimsMemoryAfterIdle
        self.limit = max(1, limit)
        self.memoryBudget = memoryBudget.map { max(1, $0) }
        self.queueLimit = queueLimit.map { max(0, $0) }
        self.executor = executor
        executor.ensureThreads(self.limit)
    }

    /// Bodies running now.
    public var running: Int { state.withLock { $0.running } }
    /// Callers waiting now.
    public var queued: Int { state.withLock { $0.waiters.count } }
    /// Estimated bytes of the bodies running now.
    public var weightInUse: Int { state.withLock { $0.weight } }

    /// Runs the blocking `body` on the executor once admitted with `weight` estimated bytes.
    public func run<T>(weight: Int = 0, _ body: () throws -> T) async throws -> T {
        try await withSlot(weight: weight) { try body() }
    }

    /// Holds a slot of `weight` estimated bytes while `body` runs on the executor (its awaits
    /// included), and gives it back when `body` returns or throws.
    public func withSlot<T>(weight: Int = 0, _ body: () async throws -> T) async throws -> T {
        let weight = max(0, weight)
        try await acquire(weight: weight)
        defer { release(weight: weight) }
        try Task.checkCancellation()
        return try await withTaskExecutorPreference(executor) { try await body() }
    }

    private func acquire(weight: Int) async throws {
        if let memoryBudget, weight > memoryBudget {
            throw WebImageError(
                .tooLarge,
                "the work needs an estimated \(Self.megabytes(weight)), over the whole memory budget of \(Self.megabytes(memoryBudget))")
        }
        enum Immediate { case admitted, refused, wait(Int) }
        let immediate: Immediate = state.withLock { state in
            if state.waiters.isEmpty, fits(weight, state) {
                state.running += 1
                state.weight += weight
                state.admissions += 1
                return .admitted
            }
            if let queueLimit, state.waiters.count >= queueLimit { return .refused }
            defer { state.nextID += 1 }
            return .wait(state.nextID)
        }
        switch immediate {
        case .admitted: return
        case .refused:
            throw WebImageError(
                .overloaded, "\(limit) jobs are running and \(queueLimit ?? 0) wait; try again shortly")
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiters.append(Waiter(id: id, weight: weight, continuation: continuation))
                        return false
                    }
                    if cancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        // The queue may have drained between the first look and now.
                        grantWaiters()
                    }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                waiter?.resume(throwing: CancellationError())
                // A heavy waiter at the head may have held lighter ones back.
                grantWaiters()
            }
        }
    }

    /// Jobs estimated at this many bytes or more return their memory as they end (when the
    /// limiter reclaims memory at all).
    static let heavyWeight = 64 << 20

    private func fits(_ weight: Int, _ state: State) -> Bool {
        guard state.running < limit else { return false }
        guard let memoryBudget else { return true }
        // An idle limiter admits anything within the budget (checked before waiting).
        return state.weight + weight <= memoryBudget
    }

    private func release(weight: Int) {
        let idleSince = state.withLock { state -> Int? in
            state.running -= 1
            state.weight -= weight
            return state.running == 0 && state.waiters.isEmpty ? state.admissions : nil
        }
        // A heavy job's freed memory sits in its thread's malloc arena, where the next job on
        // another thread cannot use it: give it back before the next one is admitted.
        if reclaimsMemoryAfterIdle != nil, weight >= Self.heavyWeight { MemoryReclaim.trimAllocator() }
        grantWaiters()
        if let idleSince, let delay = reclaimsMemoryAfterIdle {
            // Still idle `delay` later (nothing admitted since): give the memory back.
            Task.detached(priority: .background) { [self] in
                guard (try? await Task.sleep(for: delay)) != nil else { return }
                let stillIdle = state.withLock { $0.running == 0 && $0.admissions == idleSince }
                if stillIdle { MemoryReclaim.now() }
            }
        }
    }

    /// Admits waiters from the head of the queue while they fit (strict FIFO: a heavy head waits
    /// for room, and the lighter ones behind it wait with it, so that none starves).
    private func grantWaiters() {
        let granted = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            var granted: [CheckedContinuation<Void, any Error>] = []
            while let head = state.waiters.first, fits(head.weight, state) {
                state.waiters.removeFirst()
                state.running += 1
                state.admissions += 1
                state.weight += head.weight
                granted.append(head.continuation)
            }
            return granted
        }
        for continuation in granted { continuation.resume() }
    }

    private static func megabytes(_ bytes: Int) -> String {
        "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MB"
    }
}
