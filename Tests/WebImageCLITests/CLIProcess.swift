import Foundation
import Synchronization
import WebImageCodecs
import WebImageTesting

#if canImport(Glibc)
import Glibc
#endif

/// What a finished `webimage` run printed and how it exited.
struct CLIRun: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output's lines.
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Standard output's lines parsed as JSON objects.
    func jsonLines() throws -> [[String: Any]] {
        try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CocoaError(.propertyListReadCorrupt)
            }
            return object
        }
    }
}

/// Runs the built `webimage` executable as a child process.
enum CLI {
    /// The `webimage` binary, built next to the test binary.
    static func executable() throws -> URL { try BuiltProducts.executable(named: "webimage") }

    /// Starts `webimage arguments…` in `directory` with pipes for its streams (or `standardError`
    /// for standard error, e.g. a pseudo-terminal).
    static func start(
        _ arguments: [String], in directory: URL, stdin: String? = nil, standardError: FileHandle? = nil,
        environment extra: [String: String] = [:]
    ) throws -> RunningCLI {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("xdg-cache").path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = standardError ?? error
        process.standardInput = input
        let running = RunningCLI(process: process, output: output, error: standardError == nil ? error : nil)
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        return running
    }

    /// Runs `webimage arguments…` in `directory` to the end.
    static func run(
        _ arguments: [String], in directory: URL, stdin: String? = nil, environment: [String: String] = [:]
    ) async throws -> CLIRun {
        try await start(arguments, in: directory, stdin: stdin, environment: environment).finish()
    }
}

/// A `webimage` child whose output is collected as it runs.
final class RunningCLI: Sendable {
    let process: Process
    private let collected = Mutex<(out: Data, err: Data)>((Data(), Data()))
    private let readers = DispatchGroup()

    /// Collects `output` and `error` (when given) on threads of their own: blocking reads must stay
    /// off Swift concurrency's (and libdispatch's) shared threads, which also run the in-process
    /// loopback server.
    init(process: Process, output: Pipe, error: Pipe?) {
        self.process = process
        var handles = [(output.fileHandleForReading, false)]
        if let error { handles.append((error.fileHandleForReading, true)) }
        for (handle, isError) in handles {
            readers.enter()
            Thread.detachNewThread { [self] in
                let data = handle.readDataToEndOfFile()
                collected.withLock { if isError { $0.err = data } else { $0.out = data } }
                readers.leave()
            }
        }
    }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Waits for the process to exit (killing it after `limit`) and returns what it printed.
    func finish(limit: Duration = .seconds(90)) async throws -> CLIRun {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        await withCheckedContinuation { continuation in
            readers.notify(queue: .global()) { continuation.resume() }
        }
        let (out, err) = collected.withLock { $0 }
        return CLIRun(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}

/// A fresh temporary directory per test, removed at the end.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("webimage-cli-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Images the tests serve, made by our encoders.
enum Fixture {
    static func png(width: Int = 64, height: Int = 48, seed: UInt8 = 0) throws -> Data {
        var pixels = ImageFixtures.gradient(width: width, height: height)
        pixels[0, 0] = RGBA8(r: seed, g: 1, b: 2, a: 255)
        return try ImageCodersManager.standard().encode(Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions())
    }

    static func jpeg(width: Int = 320, height: Int = 200) throws -> Data {
        let pixels = ImageFixtures.gradient(width: width, height: height)
        return try ImageCodersManager.standard().encode(
            Image(pixels: pixels, format: .jpeg), as: .jpeg, options: ImageEncodingOptions(quality: 0.9))
    }

    static func gif(frames: Int = 3) throws -> Data {
        try ImageCodersManager.standard().encode(ImageFixtures.animation(frames: frames), as: .gif, options: ImageEncodingOptions())
    }
}
