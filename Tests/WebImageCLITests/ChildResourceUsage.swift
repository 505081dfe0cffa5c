import Foundation
import WebImageTesting

/// How a child process ended and what it cost, as `webimage-peak-rss` measured it (`wait4`'s
/// `ru_maxrss` of a child forked from that small launcher, not from the large test process).
struct ChildResourceUsage: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    var status: Int32
    /// The child's peak resident set size in bytes.
    var peakResidentBytes: Int
    /// Wall-clock seconds until it ended (reported, never asserted).
    var seconds: Double
    var stdout: String
    var stderr: String

    var peakMegabytes: Double { Double(peakResidentBytes) / 1_048_576 }
    /// Whether the launcher killed it at the time limit.
    var killed: Bool { status == 128 + 9 }

    /// Runs `executable arguments…` (absolute paths; `directory` holds its output and its
    /// `XDG_CACHE_HOME`) to its end, killing it after `limit` seconds.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, limit: Int) async throws
        -> ChildResourceUsage
    {
        let report = directory.appendingPathComponent("peak-rss.txt")
        let out = directory.appendingPathComponent("child-stdout.txt")
        let err = directory.appendingPathComponent("child-stderr.txt")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        defer {
            try? outHandle.close()
            try? errHandle.close()
        }

        let process = Process()
        process.executableURL = try BuiltProducts.executable(named: "webimage-peak-rss")
        process.arguments = [report.path, String(limit), executable.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("xdg-cache").path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle

        let start = ContinuousClock.now
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let elapsed = ContinuousClock.now - start
        let kilobytes = try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return ChildResourceUsage(
            status: process.terminationStatus, peakResidentBytes: (Int(kilobytes) ?? .max / 1024) * 1024,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
