import Foundation
import Logging
import WebImage

extension HTTPImageLoader {
    /// Runs the attempts of download `id` until one succeeds or the retry strategy, the host's
    /// ``RetryBudget`` or the deadline says stop. Between two attempts every caller gets
    /// ``ImageLoad/Event/retrying(_:)``, the bytes so far are dropped, and the loader waits on
    /// ``HTTPImageLoaderConfiguration/retryClock``; a download keeps its slot while it waits.
    func attempts(
        download id: Int, request: ImageLoad.Request, deadline: ContinuousClock.Instant?
    ) async throws -> ImageLoad.Result {
        let host = request.url.host?.lowercased() ?? ""
        configuration.retryBudget?.recordRequest(host: host)
        guard let strategy = request.retryStrategy ?? configuration.retryStrategy else {
            do {
                return try await transferWithinDeadline(download: id, request: request)
            } catch {
                keepResumableData(of: id, request: request)
                throw error
            }
        }
        var attempt = 0
        while true {
            do {
                return try await transferWithinDeadline(download: id, request: request)
            } catch {
                keepResumableData(of: id, request: request)
                let failure = webImageError(for: error, request: request)
                attempt += 1
                guard !Task.isCancelled, failure.code != .cancelled,
                    let delay = strategy.retryDelay(for: context(of: failure, attempt: attempt, request: request, deadline: deadline))
                else { throw failure }
                guard configuration.retryBudget?.withdraw(host: host) ?? true else {
                    configuration.logger.debug(
                        "download not retried: the host's retry budget is spent",
                        metadata: ["url": "\(request.url.absoluteString)", "error": "\(failure)"])
                    broadcaster.send(.retryRefused(request.url, failure))
                    throw failure
                }
                let retry = ImageLoad.Retry(attempt: attempt, delay: delay, error: failure)
                prepareForRetry(download: id, announcing: retry)
                configuration.logger.debug(
                    "download retrying",
                    metadata: ["url": "\(request.url.absoluteString)", "attempt": "\(attempt)", "delay": "\(delay)", "error": "\(failure)"])
                broadcaster.send(.retrying(request.url, retry))
                try await configuration.retryClock.sleep(for: delay)
            }
        }
    }

    /// What the strategy is told about a failed attempt.
    private func context(
        of failure: WebImageError, attempt: Int, request: ImageLoad.Request, deadline: ContinuousClock.Instant?
    ) -> RetryContext {
        RetryContext(
            url: request.url, attempt: attempt, error: failure, isTransient: isTransient(failure),
            retryAfter: failure.downloadDetails?.response?.retryAfter(),
            remainingTime: deadline.map { ContinuousClock.now.duration(to: $0) })
    }

    /// The configuration's ``HTTPImageLoaderConfiguration/transientPolicy``, and a connection reset
    /// or closed by the server before the response ended.
    func isTransient(_ failure: WebImageError) -> Bool {
        if configuration.transientPolicy.isTransient(failure) { return true }
        guard failure.code == .networkError, let underlying = failure.underlying else { return false }
        return Self.isConnectionLoss(underlying)
    }

    /// Drops the failed attempt's response and bytes and tells every caller a retry is coming.
    private func prepareForRetry(download id: Int, announcing retry: ImageLoad.Retry) {
        let interval = configuration.minimumProgressInterval
        state.withLock { state in
            guard state.flows[id] != nil else { return }
            state.flows[id]!.response = nil
            state.flows[id]!.data = Data()
            state.flows[id]!.throttle = ProgressReportThrottle(minimumInterval: interval)
            state.yield(.retrying(retry), to: id)
        }
    }
}
