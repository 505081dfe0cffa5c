import Synchronization

/// An async semaphore: at most `limit` bodies run at once; others wait in FIFO order.
/// Decoding and transforming go through one, so that a burst of requests never runs more codec
/// work than there are cores.
final class WorkLimiter: Sendable {
    private struct State {
        var available: Int
        var nextID = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }
    private let state: Mutex<State>

    init(limit: Int) { state = Mutex(State(available: max(1, limit))) }

    /// Runs `body` once a slot is free; throws `CancellationError` if cancelled while waiting.
    func run<T: Sendable>(_ body: () throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        try Task.checkCancellation()
        return try body()
    }

    private func acquire() async throws {
        let id: Int? = state.withLock { state in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let granted = state.withLock { state -> Bool in
                    if Task.isCancelled { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    return false
                }
                if granted { continuation.resume() } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
