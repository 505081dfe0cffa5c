import Synchronization

extension ImagePrefetcher {
    /// Passes priority changes to the loader task of a disk-only prefetch, which exists only once
    /// the download starts (and anew for each fallback URL).
    final class LoadRelay: Sendable {
        private struct State {
            var task: ImageLoad.Task?
            var priority: ImageLoad.Priority?
        }
        private let state = Mutex(State())

        init() {}

        /// The load now running; it gets the last priority set, if any.
        func attach(_ task: ImageLoad.Task) {
            let priority = state.withLock { state in
                state.task = task
                return state.priority
            }
            if let priority { task.setPriority(priority) }
        }

        func setPriority(_ priority: ImageLoad.Priority) {
            let task = state.withLock { state in
                state.priority = priority
                return state.task
            }
            task?.setPriority(priority)
        }
    }
}
