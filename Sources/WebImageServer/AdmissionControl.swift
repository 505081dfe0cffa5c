import Synchronization

/// At most `concurrency` images processed at once and at most `queueLimit` waiting; anything
/// beyond is refused at once (the caller answers `503`). A slot is handed straight to the oldest
/// waiter when it is released, so the queue drains in order.
final class AdmissionControl: Sendable {
    /// What ``acquire()`` did.
    enum Admission: Equatable {
        case admitted
        case refused
    }

    private struct State {
        var running = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID = 0
    }

    let concurrency: Int
    let queueLimit: Int
    private let state = Mutex(State())

    init(concurrency: Int, queueLimit: Int) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
    }

    /// Images being processed now.
    var running: Int { state.withLock { $0.running } }
    /// Requests waiting for a slot.
    var queued: Int { state.withLock { $0.waiters.count } }

    /// Takes a slot, waiting in the queue if there is room; `.refused` when the queue is full or
    /// the task is cancelled while waiting. Every `.admitted` must be paired with ``release()``.
    func acquire() async -> Admission {
        enum Immediate { case admitted, refused, wait(Int) }
        let immediate: Immediate = state.withLock { state in
            if state.running < concurrency {
                state.running += 1
                return .admitted
            }
            guard state.waiters.count < queueLimit else { return .refused }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch immediate {
        case .admitted: return .admitted
        case .refused: return .refused
        case .wait(let id):
            let admitted = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let cancelled = state.withLock { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiters.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(returning: false) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                waiter?.resume(returning: false)
            }
            return admitted ? .admitted : .refused
        }
    }

    /// Gives a slot back: to the oldest waiter if there is one.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
