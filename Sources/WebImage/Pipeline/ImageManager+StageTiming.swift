import Foundation
import Logging

/// How every stage is measured and reported, in one place.
extension ImageManager {
    /// Runs one stage of `plan`'s request and reports it once, however it ends: a
    /// ``ImageManager/Event`` for ``events()`` subscribers, a sample of the stage's timer and a
    /// trace log line, all with the time `body` took. An error from `body` is reported as a failed
    /// stage and rethrown; `hit` says whether a value counts as found (cache queries).
    ///
    /// ```swift
    /// let image = try await timed(.decode, plan, key: key) { try await limiter.run { … } }
    /// ```
    func timed<T>(
        _ stage: ImageManager.Event.Stage, _ plan: RequestPlan, key: String, url: URL? = nil,
        hit: (T) -> Bool = { _ in false }, _ body: () async throws -> T
    ) async throws -> T {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            record(stage, plan, key: key, url: url, duration: ContinuousClock.now - start, succeeded: true, hit: hit(value))
            return value
        } catch {
            record(
                stage, plan, key: key, url: url, duration: ContinuousClock.now - start, succeeded: false, hit: false,
                error: error)
            throw error
        }
    }

    /// Reports a download attempt of `source` that the loader retries: a
    /// ``ImageManager/Event/Stage/retry`` event whose duration is the wait, and the retries counter.
    func recordRetry(_ retry: ImageLoad.Retry, _ plan: RequestPlan, source: URL) {
        metrics.retries.increment()
        record(
            .retry, plan, key: plan.originalKey, url: source, duration: retry.delay, succeeded: false, hit: false,
            attempt: retry.attempt, error: retry.error)
    }

    /// Reports a finished stage: an event for subscribers, a timer sample, a trace log line.
    private func record(
        _ stage: ImageManager.Event.Stage, _ plan: RequestPlan, key: String, url: URL? = nil, duration: Duration,
        succeeded: Bool, hit: Bool, attempt: Int? = nil, error: (any Error)? = nil
    ) {
        let (seconds, attoseconds) = duration.components
        metrics.stageTimers[stage]?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if broadcaster.hasSubscribers {
            broadcaster.send(
                ImageManager.Event(
                    stage: stage, url: url ?? plan.url, key: key, duration: duration, succeeded: succeeded, hit: hit,
                    attempt: attempt, error: error))
        }
        logger.trace("\(stage.rawValue) \(key) \(succeeded ? "ok" : "failed") in \(duration)")
    }
}
