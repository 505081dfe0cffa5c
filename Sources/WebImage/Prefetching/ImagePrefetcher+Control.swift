import Synchronization

extension ImagePrefetcher {
    /// What every prefetch of one prefetcher obeys while it runs: the pause switch and the
    /// priority, and the running loads a priority change reaches.
    final class Control: Sendable {
        private struct State {
            var isPaused = false
            var priority: ImageLoad.Priority
            var nextID = 0
            /// Workers waiting for ``resume()``.
            var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
            /// Workers cancelled before they started waiting.
            var cancelledBeforeWaiting: Set<Int> = []
            /// How to change the priority of each load running now.
            var running: [Int: @Sendable (ImageLoad.Priority) -> Void] = [:]
            var nextLoadID = 0
        }
        private let state: Mutex<State>

        init(priority: ImageLoad.Priority) {
            state = Mutex(State(priority: priority))
        }

        var isPaused: Bool { state.withLock { $0.isPaused } }

        var priority: ImageLoad.Priority { state.withLock { $0.priority } }

        func pause() { state.withLock { $0.isPaused = true } }

        func resume() {
            let waiters = state.withLock { state in
                state.isPaused = false
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }

        /// Sets the priority of later loads and of the running ones.
        func setPriority(_ priority: ImageLoad.Priority) {
            let running = state.withLock { state in
                state.priority = priority
                return Array(state.running.values)
            }
            for apply in running { apply(priority) }
        }

        /// Returns at once when not paused, else when resumed or when the waiting task is cancelled.
        func waitUntilRunning() async {
            let id = state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state in
                        if !state.isPaused || state.cancelledBeforeWaiting.remove(id) != nil { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    guard let waiter = state.waiters.removeValue(forKey: id) else {
                        state.cancelledBeforeWaiting.insert(id)
                        return CheckedContinuation<Void, Never>?.none
                    }
                    return waiter
                }
                waiter?.resume()
            }
        }

        /// Tracks a running load until ``finish(_:)``: `apply` gets every later priority change,
        /// and the current priority at once when it is not `startedAt` (a change made while the
        /// load was being started is not lost).
        func track(startedAt: ImageLoad.Priority, _ apply: @escaping @Sendable (ImageLoad.Priority) -> Void) -> Int {
            let (id, priority) = state.withLock { state in
                defer { state.nextLoadID += 1 }
                state.running[state.nextLoadID] = apply
                return (state.nextLoadID, state.priority)
            }
            if priority != startedAt { apply(priority) }
            return id
        }

        func finish(_ id: Int) {
            _ = state.withLock { $0.running.removeValue(forKey: id) }
        }
    }
}
