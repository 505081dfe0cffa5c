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
            // Named from inside (15 bytes at most): a new thread inherits its creator's name, and
            // on Linux Foundation's `Thread.name` setter sometimes skips the system call when it
            // runs before the parent has recorded the thread (seen 1 start in 40).
            Self.nameCurrentThread("wi-blocking-\(number)")
            self.runJobs()
        }
        // Codecs and librsvg's parser recurse: a thread stack as large as the main thread's.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Whether the calling thread is one of this executor's.
    public var isCurrentThread: Bool {
        pthread_getspecific(Self.threadOwner) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Marks each executor thread with the executor that owns it (see ``isCurrentThread``).
    private static let threadOwner: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Names the calling thread as `ps`, `top` and debuggers show it.
    private static func nameCurrentThread(_ name: String) {
        #if canImport(Glibc)
            if let setName = GlibcExtensions.setThreadName {
                _ = setName(pthread_self(), name)
                return
            }
        #endif
        Thread.current.name = name
    }

    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        pthread_setspecific(Self.threadOwner, Unmanaged.passUnretained(self).toOpaque())
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
