import Synchronization

/// A gate that parks server responses until a test opens it, so that races become deterministic:
/// the test waits until a response has reached the gate, acts, then opens it.
///
/// ```swift
/// let gate = TestGate()
/// server.route("/slow", response: .ok(bytes, steps: [.wait(gate)]))
/// let task = loader.load(ImageLoad.Request(url: server.url("/slow")))
/// await gate.waitForArrivals(1)      // the response is parked at the gate
/// task.cancel()
/// gate.open()
/// ```
public final class TestGate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var nextID = 0
        var parked: [Int: CheckedContinuation<Void, any Error>] = [:]
        /// Ids of `pass()` and `waitForArrivals` calls cancelled before they started waiting.
        var cancelledBeforeWaiting: Set<Int> = []
        var arrivalWaiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// A closed gate.
    public init() {}

    /// How many times something reached the gate.
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Whether the gate is open.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the gate for good: everything parked goes on, later arrivals pass at once.
    public func open() {
        let parked = state.withLock { state in
            state.isOpen = true
            defer { state.parked.removeAll() }
            return Array(state.parked.values)
        }
        for continuation in parked { continuation.resume() }
    }

    /// Waits until the gate has been reached `count` times in all, or the waiting task is
    /// cancelled (a test past its time limit then fails instead of hanging).
    public func waitForArrivals(_ count: Int) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.arrivals >= count || state.cancelledBeforeWaiting.remove(id) != nil { return true }
                    state.arrivalWaiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.arrivalWaiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeWaiting.insert(id)
                    return nil
                }
                return state.arrivalWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Arrives at the gate and waits until it is open; throws `CancellationError` if the waiting
    /// task is cancelled first.
    public func pass() async throws {
        let (id, ready) = state.withLock { state in
            state.arrivals += 1
            let arrivals = state.arrivals
            var stillWaiting: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
            for waiter in state.arrivalWaiters {
                if arrivals >= waiter.count { waiter.continuation.resume() } else { stillWaiting.append(waiter) }
            }
            state.arrivalWaiters = stillWaiting
            defer { state.nextID += 1 }
            return (state.nextID, state.isOpen)
        }
        if ready { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.isOpen { return .success(()) }
                    if state.cancelledBeforeWaiting.remove(id) != nil { return .failure(CancellationError()) }
                    state.parked[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let parked = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let continuation = state.parked.removeValue(forKey: id) { return continuation }
                if !state.isOpen { state.cancelledBeforeWaiting.insert(id) }
                return nil
            }
            parked?.resume(throwing: CancellationError())
        }
    }
}
