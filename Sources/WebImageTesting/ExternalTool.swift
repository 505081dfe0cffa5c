public import Foundation

/// Command-line tools installed on the machine (Debian's cjpeg, djpeg, dwebp, …), found on PATH
/// and run with bytes on stdin: independent encoders and decoders for tests and fuzz seeds.
///
/// ```swift
/// if let cjpeg = ExternalTool.find("cjpeg"), let jpeg = ExternalTool.run(cjpeg, ["-progressive"], input: ppm) { … }
/// ```
public enum ExternalTool {
    /// The path of the executable `name` in the first PATH directory that has one, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `tool` with `arguments`, feeding `input` on stdin; returns stdout, or nil when the
    /// tool cannot start or exits with a non-zero status.
    public static func run(_ tool: String, _ arguments: [String], input: Data) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // Write on another thread so a large output cannot deadlock against a full input pipe.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output : nil
    }
}
