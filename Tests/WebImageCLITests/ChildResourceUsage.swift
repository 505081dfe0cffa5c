import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended and what it cost, from `wait4`'s resource usage.
struct ChildResourceUsage: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    var status: Int32
    /// The child's peak resident set size in bytes (`ru_maxrss`).
    var peakResidentBytes: Int
    /// Wall-clock seconds until it ended (reported, never asserted).
    var seconds: Double
    /// Whether it was killed for running past its limit.
    var killed: Bool
    var stdout: String
    var stderr: String

    var peakMegabytes: Double { Double(peakResidentBytes) / 1_048_576 }

    /// Runs `executable arguments…` (give absolute paths; `directory` holds its output and cache) to its end (SIGKILL after `limit` seconds) on a
    /// thread of its own, and reports its peak memory as the kernel measured it.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, limit: Double) async throws
        -> ChildResourceUsage
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(executable, arguments, in: directory, limit: limit) })
            }
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], in directory: URL, limit: Double) throws
        -> ChildResourceUsage
    {
        let outPath = directory.appendingPathComponent("child-stdout.txt").path
        let errPath = directory.appendingPathComponent("child-stderr.txt").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("xdg-cache").path
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }

        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }

        var rawStatus: Int32 = 0
        var usage = rusage()
        var killed = false
        while true {
            let result = wait4(pid, &rawStatus, WNOHANG, &usage)
            if result == pid { break }
            if result < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
            if !killed, ContinuousClock.now - start > .seconds(limit) {
                kill(pid, SIGKILL)
                killed = true
            }
            usleep(10_000)
        }
        let elapsed = ContinuousClock.now - start
        let signal = rawStatus & 0x7F
        let status = signal == 0 ? (rawStatus >> 8) & 0xFF : 128 + signal
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return ChildResourceUsage(
            status: status, peakResidentBytes: Int(usage.ru_maxrss) * 1024,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            killed: killed, stdout: read(outPath), stderr: read(errPath))
    }
}
