import Foundation

/// Threads of their own for blocking work — C codecs, resampling, waiting for the SVG renderer —
/// so that it never occupies the cooperative pool, whose few threads (one per core) also run
/// request handlers, timers and I/O callbacks.
///
/// A task executor: code inside `withTaskExecutorPreference(BlockingWorkExecutor.shared) { … }`
/// runs on these threads and stays in its task, so `Task.isCancelled` and task-locals work as
/// usual. ``WorkLimiter`` runs every body it admits here.
///
/// ```swift
/// let image = try await withTaskExecutorPreference(BlockingWorkExecutor.shared) {
///     try coders.decode(data, options: options)   // a blocking call, off the cooperative pool
/// }
/// ```
public final class BlockingWorkExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `threadsStarted` are only touched with `condition` locked.
    /// The executor the library's limiters use: as many threads as ``WorkLimiter``s admit at once
    /// grow it, at least the number of cores.
    public static let shared = BlockingWorkExecutor(threads: ProcessInfo.processInfo.activeProcessorCount)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var threadsStarted = 0
    private var threadsWanted: Int
    private var idle = 0

    /// An executor with `threads` threads (at least 1), started when first needed.
    public init(threads: Int) {
        threadsWanted = max(1, threads)
    }

    /// The number of threads the executor may run (it starts them as work arrives).
    public var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threadsWanted
    }

    /// Lets the executor run at least `count` jobs at once (a limiter that admits `count`
    /// blocking bodies calls this, so that none of them waits for a thread).
    public func ensureThreads(_ count: Int) {
        condition.lock()
        threadsWanted = max(threadsWanted, count)
        condition.unlock()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // More jobs waiting than idle threads to take them: one more thread, while allowed.
        let start = jobs.count - head > idle && threadsStarted < threadsWanted
        if start { threadsStarted += 1 }
        condition.signal()
        condition.unlock()
        if start { startThread(number: threadsStarted) }
    }

    private func startThread(number: Int) {
        let thread = Thread { [unowned self] in
            // Named from inside: on Linux a name given before start is not applied (15 bytes at most).
            Thread.current.name = "wi-blocking-\(number)"
            self.runJobs()
        }
        // Codecs and librsvg's parser recurse: a thread stack as large as the main thread's.
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while head == jobs.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
