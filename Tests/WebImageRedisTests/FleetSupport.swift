import Foundation
import Synchronization
import WebImageTesting

/// Runs child processes for the fleet tests: the built `webimage`, and `deploy/fleet/fleet.sh`.
enum Tools {
    /// The repository's root (this file is Tests/WebImageRedisTests/FleetSupport.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var fleetScript: String { root.appendingPathComponent("deploy/fleet/fleet.sh").path }

    /// The first of `name` on PATH or in the sbin directories.
    static func find(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in path + ["/usr/sbin", "/usr/local/sbin", "/sbin", "/usr/bin"] {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable arguments…` to the end on a thread of its own; returns status and output.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: executable)
                    process.arguments = arguments
                    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                    let output = Pipe()
                    let error = Pipe()
                    process.standardOutput = output
                    process.standardError = error
                    process.standardInput = FileHandle.nullDevice
                    try process.run()
                    // Read both streams to their ends (children the script leaves running hold
                    // no copy of these pipes: the script redirects them).
                    let errorData = Mutex<Data>(Data())
                    let errorDone = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() }
                        errorDone.signal()
                    }
                    let stdout = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    errorDone.wait()
                    return (
                        process.terminationStatus, String(decoding: stdout, as: UTF8.self),
                        String(decoding: errorData.withLock { $0 }, as: UTF8.self)
                    )
                })
            }
        }
    }

    /// The built `webimage`.
    static func webimage() throws -> String { try BuiltProducts.executable(named: "webimage").path }

    /// Whether the built `webimage` has `serve` with `--redis` (blocks while `serve --help` runs).
    static func hasServeWithRedis() -> Bool {
        guard let tool = try? webimage() else { return false }
        let help = helpText(tool, ["--help"])
        guard help.split(separator: "\n").contains(where: { $0.hasPrefix("  serve ") }) else { return false }
        return helpText(tool, ["serve", "--help"]).contains("--redis")
    }

    private static func helpText(_ tool: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }
}

/// A running fleet started by `fleet.sh start`; ``stop()`` ends it.
struct Fleet {
    let directory: String
    let url: String
    let redisURL: String
    let redisPID: Int32?
    let nodePIDs: [Int32]

    static func start(nodes: Int, serveArguments: [String], extra: [String] = []) async throws -> Fleet {
        let result = try await Tools.run(
            "/bin/bash", [Tools.fleetScript, "start", "--nodes", String(nodes), "--webimage", try Tools.webimage()] + extra
                + ["--"] + serveArguments)
        guard result.status == 0 else { throw FleetError("fleet.sh start failed (\(result.status)): \(result.stderr)") }
        var values: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        guard let directory = values["FLEET_DIR"], let url = values["FLEET_URL"] else {
            throw FleetError("fleet.sh printed no FLEET_DIR/FLEET_URL: \(result.stdout)")
        }
        return Fleet(
            directory: directory, url: url, redisURL: values["FLEET_REDIS_URL"] ?? "",
            redisPID: values["FLEET_REDIS_PID"].flatMap { Int32($0) },
            nodePIDs: (values["FLEET_NODE_PIDS"] ?? "").split(separator: " ").compactMap { Int32($0) })
    }

    func killNode(_ index: Int) async throws {
        _ = try await Tools.run("/bin/bash", [Tools.fleetScript, "kill-node", directory, String(index)])
    }

    func stopRedis() async throws {
        _ = try await Tools.run("/bin/bash", [Tools.fleetScript, "stop-redis", directory])
    }

    func stop() async {
        _ = try? await Tools.run("/bin/bash", [Tools.fleetScript, "stop", directory])
    }
}

struct FleetError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
