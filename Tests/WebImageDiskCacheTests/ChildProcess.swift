import Foundation
import WebImageTesting

/// A running `webimage-cache-stress` child with line-based stdin/stdout (see its usage). All
/// calls block the calling thread; tests run them through ``onThread(_:)``, off the
/// concurrency pool.
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private var buffer = Data()

    /// Starts the stress executable with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = try Self.stressExecutable()
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
    }

    /// The `webimage-cache-stress` binary, built next to the test binary.
    static func stressExecutable() throws -> URL { try BuiltProducts.executable(named: "webimage-cache-stress") }

    /// Reads lines until one equals `line`; returns false if the output ends first.
    func waitForLine(_ line: String) -> Bool {
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if text == line { return true }
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return false }
            buffer.append(chunk)
        }
    }

    /// Writes a line to the child's stdin.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends SIGKILL.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the child to end (draining its output); returns how it ended.
    func wait() -> (reason: Process.TerminationReason, status: Int32) {
        while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty { buffer.append(chunk) }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    /// The last line the child printed (after ``wait()``): its error, when it failed.
    var lastLine: String {
        String(decoding: buffer, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Runs blocking `body` on a thread of its own (not libdispatch's pool, which Swift
    /// concurrency shares on Linux) and resumes with its result.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
