import Foundation

/// One running load of a target's key: the task, the handlers of every call that joined it, and
/// the two tasks that carry its progress and responses to the main actor.
///
/// It holds its target weakly, so it never keeps a view alive. ``cancel()`` and the end of the
/// load are idempotent and decided on the main actor, where results are delivered too: once
/// cancelled, nothing of the load reaches the target.
@MainActor
final class BindingOperation {
    typealias Completion = @MainActor (Result<ImageResponse, any Error>) -> Void
    typealias Progress = @MainActor (ImageLoad.Progress) -> Void

    let key: ImageBinder.Key
    let url: URL
    let resultKey: String?
    let task: ImageTask
    private(set) weak var target: (any ImageTarget)?
    var placeholder: Image?
    /// Shown when the load fails (not when it is cancelled).
    var failureImage: Image?
    var options: ImageBinder.Options
    var transition: ImageTransition?
    private var completions: [Completion] = []
    private var progressHandlers: [Progress] = []
    private var carriers: [Task<Void, Never>] = []
    /// False once cancelled or ended.
    private(set) var isActive = true

    init(
        key: ImageBinder.Key, url: URL, resultKey: String?, task: ImageTask, target: any ImageTarget,
        placeholder: Image?, failureImage: Image?, options: ImageBinder.Options, transition: ImageTransition?
    ) {
        self.key = key
        self.url = url
        self.resultKey = resultKey
        self.task = task
        self.target = target
        self.placeholder = placeholder
        self.failureImage = failureImage
        self.options = options
        self.transition = transition
    }

    /// Adds a caller's handlers (the first, or one that joined the running load).
    func add(progress: Progress?, completion: @escaping Completion) {
        if let progress { progressHandlers.append(progress) }
        completions.append(completion)
    }

    /// Starts carrying the task's progress and responses to the main actor.
    func start() {
        let task = task
        carriers = [
            Task { @MainActor [weak self] in
                for await progress in task.progress {
                    guard let self, self.isActive else { return }
                    self.report(progress)
                }
            },
            Task { @MainActor [weak self] in
                do {
                    for try await response in task.responses {
                        guard let self, self.isActive else { return }
                        self.deliver(response)
                    }
                } catch {
                    guard let self, self.isActive else { return }
                    self.fail(error)
                }
            },
        ]
    }

    /// Stops the load: the task is cancelled, the indicator stops, the completions get `cancelled`.
    func cancel() {
        guard isActive else { return }
        isActive = false
        task.cancel()
        for carrier in carriers { carrier.cancel() }
        target?.imageIndicator?.stopAnimatingIndicator()
        let error = WebImageError(.cancelled, "the load of \(url.absoluteString) for \(key) was cancelled")
        for completion in completions { completion(.failure(error)) }
    }

    // MARK: Delivery

    private func report(_ progress: ImageLoad.Progress) {
        if let fraction = progress.fractionCompleted { target?.imageIndicator?.updateIndicatorProgress(fraction) }
        for handler in progressHandlers { handler(progress) }
    }

    private func deliver(_ response: ImageResponse) {
        if response.isFinal { finish(success: true) }
        if let target, !options.contains(.avoidAutoSetImage) {
            // Network and disk images come in with the transition; memory hits show at once.
            let animate = options.contains(.forceTransition) || response.cacheType != .memory
            target.setImage(response.image, for: key, transition: animate ? transition : nil)
        }
        for completion in completions { completion(.success(response)) }
    }

    private func fail(_ error: any Error) {
        finish(success: false)
        let cancelled = (error as? WebImageError)?.code == .cancelled
        if let target, !cancelled, !options.contains(.avoidAutoSetImage), let failureImage {
            target.setImage(failureImage, for: key, transition: transition)
        } else if let target, !cancelled, options.contains(.delayPlaceholder) {
            target.setImage(placeholder, for: key, transition: nil)
        }
        for completion in completions { completion(.failure(error)) }
    }

    private func finish(success: Bool) {
        isActive = false
        target?.imageBinder.end(self)
        if success { target?.imageIndicator?.updateIndicatorProgress(1) }
        target?.imageIndicator?.stopAnimatingIndicator()
    }
}
