import Foundation
import Synchronization

/// Two threads of their own on which every ``LoopbackHTTPServer`` in the process runs its
/// accept loop, connections and response scripts.
///
/// Tests run side by side in one process, and many of them do seconds of synchronous work
/// (decoding, encoding, resampling) on Swift concurrency's shared pool, which has a thread per
/// core. A server on that pool could then stall long enough for its client's idle timeout to fire.
/// On its own threads the server answers whatever the rest of the process is doing.
final class LoopbackExecutor: TaskExecutor {
    /// The executor all loopback servers share; its threads live as long as the process.
    static let shared = LoopbackExecutor(threads: 2)

    private let queue = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in run() }
            thread.name = "LoopbackHTTPServer-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.append(job) }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
