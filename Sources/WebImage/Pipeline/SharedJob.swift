import Synchronization

/// What a shared job tells its subscribers.
enum JobEvent<Value: Sendable>: Sendable {
    /// Bytes arrived.
    case progress(ImageLoad.Progress)
    /// A progressive partial image.
    case preview(ImageTask.Preview)
    /// A result; a job may deliver more than one (refreshCached: the cached one, then the new one).
    case value(Value)
    /// The job ended: `nil` after its last value, or the error.
    case finished((any Error)?)
}

/// One unit of work shared by every request that needs it (a download+decode, or a final
/// image), with the lifecycle the manager's coalescing needs:
///
/// - subscribers join while it runs and each gets every later event;
/// - a subscriber that leaves gets `cancelled` at once; the work is cancelled only when the last
///   subscriber leaves;
/// - once finished or cancelled it takes no more subscribers (``subscribe(_:)`` returns nil) and
///   removes itself from its registry through `onEnd`.
package final class SharedJob<Value: Sendable>: Sendable {
    typealias Sink = @Sendable (JobEvent<Value>) -> Void

    private struct State {
        var nextID = 0
        var sinks: [Int: Sink] = [:]
        var ended = false
        var work: Task<Void, Never>?
        var priority: ImageLoad.Priority
        var onPriority: (@Sendable (ImageLoad.Priority) -> Void)?
    }
    private let state: Mutex<State>
    private let onEnd: @Sendable (SharedJob<Value>) -> Void

    init(priority: ImageLoad.Priority, onEnd: @escaping @Sendable (SharedJob<Value>) -> Void) {
        state = Mutex(State(priority: priority))
        self.onEnd = onEnd
    }

    /// Starts the work in a new task (off the caller's task). Call once, after the first subscribe.
    func start(_ body: @escaping @Sendable (SharedJob<Value>) async throws -> Void) {
        let work = Task {
            do {
                try await body(self)
                self.end(nil)
            } catch {
                self.end(error)
            }
        }
        // Every subscriber may have left before the task existed: then stop it at once.
        let abandoned = state.withLock { state in
            state.work = work
            return state.ended
        }
        if abandoned { work.cancel() }
    }

    /// Adds a subscriber; nil when the job has already ended.
    func subscribe(_ sink: @escaping Sink) -> Int? {
        state.withLock { state in
            guard !state.ended else { return nil }
            defer { state.nextID += 1 }
            state.sinks[state.nextID] = sink
            return state.nextID
        }
    }

    /// Removes a subscriber, telling it `cancelled`; cancels the work if it was the last one.
    func unsubscribe(_ id: Int) {
        let (sink, cancelWork) = state.withLock { state -> (Sink?, Task<Void, Never>?) in
            guard let sink = state.sinks.removeValue(forKey: id) else { return (nil, nil) }
            guard state.sinks.isEmpty, !state.ended else { return (sink, nil) }
            state.ended = true
            return (sink, state.work)
        }
        sink?(.finished(WebImageError(.cancelled, "the image request was cancelled")))
        if let cancelWork {
            cancelWork.cancel()
            onEnd(self)
        }
    }

    /// Ends the job for every subscriber with `error` and cancels its work (the manager's
    /// `cancelAll()` and `invalidate()`); nothing when it has already ended.
    func cancel(with error: WebImageError) {
        let ending = state.withLock { state -> (sinks: [Sink], work: Task<Void, Never>?)? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.sinks.removeAll() }
            return (Array(state.sinks.values), state.work)
        }
        guard let (sinks, work) = ending else { return }
        work?.cancel()
        for sink in sinks { sink(.finished(error)) }
        onEnd(self)
    }

    /// Sends an event to every subscriber.
    func send(_ event: JobEvent<Value>) {
        let sinks = state.withLock { Array($0.sinks.values) }
        for sink in sinks { sink(event) }
    }

    /// The priority the work should run at (the last one asked for).
    var priority: ImageLoad.Priority { state.withLock { $0.priority } }

    /// Changes the priority and tells the running stage (a queued download).
    func setPriority(_ priority: ImageLoad.Priority) {
        let apply = state.withLock { state in
            state.priority = priority
            return state.onPriority
        }
        apply?(priority)
    }

    /// Sets what a priority change does now (the current stage's reaction).
    func onPriorityChange(_ body: (@Sendable (ImageLoad.Priority) -> Void)?) {
        state.withLock { $0.onPriority = body }
    }

    private func end(_ error: (any Error)?) {
        let (sinks, wasEnded) = state.withLock { state -> ([Sink], Bool) in
            let wasEnded = state.ended
            state.ended = true
            defer { state.sinks.removeAll() }
            return (Array(state.sinks.values), wasEnded)
        }
        for sink in sinks { sink(.finished(error)) }
        if !wasEnded { onEnd(self) }
    }
}

/// A registry of running jobs by key: the coalescing table of one stage.
package final class JobRegistry<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let jobs = Mutex<[Key: SharedJob<Value>]>([:])
    /// Jobs shared with no one (requests with closures), kept only so that ``cancelAll(with:)``
    /// reaches them.
    private let solos = Mutex<[ObjectIdentifier: SharedJob<Value>]>([:])

    /// An empty registry.
    package init() {}

    /// Subscribes `sink` to the running job for `key`, or makes, subscribes and starts a new one
    /// with `body`. Returns the job and the subscription id.
    func join(
        _ key: Key, priority: ImageLoad.Priority, sink: @escaping SharedJob<Value>.Sink,
        body: @escaping @Sendable (SharedJob<Value>) async throws -> Void
    ) -> (job: SharedJob<Value>, id: Int) {
        let (job, id, isNew) = jobs.withLock { jobs -> (SharedJob<Value>, Int, Bool) in
            if let running = jobs[key], let id = running.subscribe(sink) { return (running, id, false) }
            let job = SharedJob<Value>(priority: priority) { [weak self] ended in self?.remove(key, ifStill: ended) }
            // A new job has not ended: subscribing cannot fail.
            let id = job.subscribe(sink) ?? 0
            jobs[key] = job
            return (job, id, true)
        }
        if isNew { job.start(body) }
        return (job, id)
    }

    /// A job that is not coalesced with any other (requests with closures), started with `body`.
    func solo(
        priority: ImageLoad.Priority, sink: @escaping SharedJob<Value>.Sink,
        body: @escaping @Sendable (SharedJob<Value>) async throws -> Void
    ) -> (job: SharedJob<Value>, id: Int) {
        let job = SharedJob<Value>(priority: priority) { [weak self] ended in
            _ = self?.solos.withLock { $0.removeValue(forKey: ObjectIdentifier(ended)) }
        }
        let id = job.subscribe(sink) ?? 0
        solos.withLock { $0[ObjectIdentifier(job)] = job }
        job.start(body)
        return (job, id)
    }

    /// How many jobs are running, those shared with no one included.
    package var count: Int { jobs.withLock { $0.count } + solos.withLock { $0.count } }

    /// Ends every running job for all its subscribers with `error` and cancels its work.
    package func cancelAll(with error: WebImageError) {
        let running = jobs.withLock { Array($0.values) } + solos.withLock { Array($0.values) }
        for job in running { job.cancel(with: error) }
    }

    private func remove(_ key: Key, ifStill job: SharedJob<Value>) {
        jobs.withLock { jobs in
            if jobs[key] === job { jobs[key] = nil }
        }
    }
}

extension JobRegistry {
    /// Joins the running job for `key`, or starts `body` as a new one, and returns its value.
    ///
    /// The caller's task being cancelled (a deadline, a client gone) makes this caller leave at
    /// once with ``WebImageError/Code/cancelled``; the work itself is cancelled only when no other
    /// caller waits for it.
    package func value(
        for key: Key, priority: ImageLoad.Priority = .normal, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let subscription = Mutex<(job: SharedJob<Value>, id: Int)?>(nil)
        let leave: @Sendable () -> Void = {
            if let (job, id) = subscription.withLock({ $0 }) { job.unsubscribe(id) }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let once = Mutex<CheckedContinuation<Value, any Error>?>(continuation)
                let finish: @Sendable (Result<Value, any Error>) -> Void = { result in
                    once.withLock { pending -> CheckedContinuation<Value, any Error>? in
                        defer { pending = nil }
                        return pending
                    }?.resume(with: result)
                }
                let joined = join(
                    key, priority: priority,
                    sink: { event in
                        switch event {
                        case .value(let value): finish(.success(value))
                        case .finished(let error):
                            finish(.failure(error ?? WebImageError(.cancelled, "the shared work ended without a result")))
                        case .progress, .preview: break
                        }
                    },
                    body: { job in job.send(.value(try await body())) })
                subscription.withLock { $0 = joined }
                if Task.isCancelled { leave() }
            }
        } onCancel: {
            leave()
        }
    }
}
