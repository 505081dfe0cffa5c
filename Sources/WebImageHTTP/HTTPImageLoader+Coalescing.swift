import Foundation
import Logging
public import WebImage

extension HTTPImageLoader {
    /// Queues or joins the download of `request.url` and returns this caller's task. A download
    /// is joined only when the revalidation validators, ``ImageLoad/Request/allowsInvalidCertificates``
    /// and ``ImageLoad/Request/handlesCookies`` match too.
    ///
    /// Dropping the task's event stream unconsumed, or cancelling the task that iterates it,
    /// cancels this caller.
    public func load(_ request: ImageLoad.Request) -> ImageLoad.Task {
        let (stream, continuation) = AsyncThrowingStream<ImageLoad.Event, any Error>.makeStream()
        let key = DownloadKey(request)
        let registered: (token: Int, start: [Int])? = state.withLock { state in
            guard !state.isShutdown else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            let subscription = state.machine.subscribe(token: token, key: key, priority: request.priority)
            state.subscribers[token] = LoaderState.Subscriber(
                continuation: continuation, wantsPartialData: request.reportsPartialData)
            if !subscription.joined {
                state.flows[subscription.download] = LoaderState.Flow(
                    request: request,
                    throttle: ProgressReportThrottle(minimumInterval: configuration.minimumProgressInterval),
                    allowsPartialData: (request.decryptor ?? configuration.decryptor) == nil)
            } else if let flow = state.flows[subscription.download] {
                // A late joiner starts from what the download has so far.
                if let response = flow.response { continuation.yield(.response(response)) }
                if !flow.data.isEmpty {
                    continuation.yield(.progress(flow.progress(partial: request.reportsPartialData)))
                }
            }
            return (token, subscription.start)
        }
        guard let registered else {
            return .failed(WebImageError(.cancelled, "the loader was shut down"))
        }
        let token = registered.token
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.cancel(token: token) }
        }
        launch(registered.start)
        return ImageLoad.Task(
            events: stream,
            onCancel: { [weak self] in self?.cancel(token: token) },
            onPriorityChange: { [weak self] priority in
                self?.state.withLock { $0.machine.setPriority(token: token, priority) }
            })
    }

    func cancel(token: Int) {
        let stopping: (task: Task<Void, Never>?, url: URL?)? = state.withLock { state in
            let action = state.machine.cancel(token: token)
            state.subscribers.removeValue(forKey: token)?.continuation.finish(
                throwing: WebImageError(.cancelled, "the load was cancelled"))
            switch action {
            case .none, .detach:
                return nil
            case .detachAndDrop(let id):
                state.flows[id] = nil
                return nil
            case .detachAndStop(let id):
                state.flows[id]?.stopRequested = true
                return (state.flows[id]?.task, state.flows[id]?.request.url)
            }
        }
        if let stopping {
            configuration.logger.debug("download stopping: last caller cancelled", metadata: ["url": "\(stopping.url?.absoluteString ?? "?")"])
            stopping.task?.cancel()
        }
    }

    func launch(_ downloads: [Int]) {
        for id in downloads {
            let task = Task { await self.run(download: id) }
            state.withLock { state in
                state.flows[id]?.task = task
                if state.flows[id]?.stopRequested == true { task.cancel() }
            }
        }
    }

    private func run(download id: Int) async {
        guard let request = state.withLock({ $0.flows[id]?.request }) else { return }
        let url = request.url
        configuration.logger.debug("download started", metadata: ["url": "\(url.absoluteString)"])
        broadcaster.send(.started(url))
        let outcome: Result<ImageLoad.Result, WebImageError>
        do {
            outcome = .success(try await transfer(download: id, request: request))
        } catch {
            outcome = .failure(webImageError(for: error, request: request))
        }
        finish(download: id, url: url, outcome: outcome)
    }

    private func finish(download id: Int, url: URL, outcome: Result<ImageLoad.Result, WebImageError>) {
        let (stopped, start) = state.withLock { state -> (Bool, [Int]) in
            let stopped = state.flows.removeValue(forKey: id)?.stopRequested ?? true
            let ended = state.machine.downloadEnded(id)
            for token in ended.subscribers {
                guard let continuation = state.subscribers.removeValue(forKey: token)?.continuation else { continue }
                switch outcome {
                case .success(let result):
                    continuation.yield(.finished(result))
                    continuation.finish()
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            }
            return (stopped, ended.start)
        }
        let logger = configuration.logger
        switch outcome {
        case .success(let result) where !stopped:
            logger.debug(
                "download finished",
                metadata: [
                    "url": "\(url.absoluteString)", "bytes": "\(result.metrics.receivedBytes)",
                    "ttfb": "\(result.metrics.timeToFirstByte.map { "\($0)" } ?? "-")",
                    "total": "\(result.metrics.totalDuration)",
                ])
            broadcaster.send(.stopped(url, error: nil))
            broadcaster.send(.finished(url, result.metrics))
        case .failure(let error) where !stopped:
            logger.debug("download failed", metadata: ["url": "\(url.absoluteString)", "error": "\(error)"])
            broadcaster.send(.stopped(url, error: error))
        default:
            logger.debug("download stopped", metadata: ["url": "\(url.absoluteString)"])
            broadcaster.send(.stopped(url, error: WebImageError(.cancelled, "every caller cancelled")))
        }
        launch(start)
    }
}
