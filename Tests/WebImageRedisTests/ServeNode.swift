import AsyncHTTPClient
import Foundation
import Logging
import Synchronization
import WebImageCodecs
import WebImageTesting

/// A `webimage serve` child on a free loopback port with its own disk cache, for the tests that
/// need the service's whole Redis path (start-up check, `/ready`, `/metrics`, the log). Standard
/// output and error go to files in `directory`; `WEBIMAGE_` variables of the test's environment
/// are not passed on.
final class ServeNode: @unchecked Sendable {  // `process` is only signalled and waited for, which Process allows from any thread
    let process: Process
    let port: Int
    let directory: URL
    let errors: URL

    var cacheDirectory: URL { directory.appendingPathComponent("cache") }

    private init(process: Process, port: Int, directory: URL, errors: URL) {
        self.process = process
        self.port = port
        self.directory = directory
        self.errors = errors
    }

    /// Starts `webimage serve --redis redisURL` (unsigned URLs, loopback origins allowed) and
    /// waits for its listening line.
    static func start(redis redisURL: String, environment extra: [String: String], in directory: URL) async throws -> ServeNode {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.webimage())
        process.arguments = [
            "serve", "--bind", "127.0.0.1", "--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--no-access-log",
            "--cache-dir", directory.appendingPathComponent("cache").path, "--redis", redisURL,
        ]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WEBIMAGE_") }
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = directory.appendingPathComponent("serve.out")
        let errors = directory.appendingPathComponent("serve.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first,
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let port = object["port"] as? Int
            {
                return ServeNode(process: process, port: port, directory: directory, errors: errors)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw TestServerError("serve did not start (status \(process.terminationStatus)): \(log)")
    }

    /// GET `path`: the status and the body.
    func get(_ path: String) async throws -> (status: Int, body: Data) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), Data(body.readableBytesView))
    }

    /// GET `path` as text.
    func text(_ path: String) async throws -> String { String(decoding: try await get(path).body, as: UTF8.self) }

    /// What the service wrote to standard error so far.
    var log: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// The value of the sample `name` (with its labels, as `/metrics` prints it), if present.
    func metric(_ name: String) async throws -> Double? {
        for line in try await text("/metrics").split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// SIGTERM (a graceful exit: pending cache stores finish), then waits.
    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The service path of a PNG thumbnail of `source` fitting `size`×`size` (unsigned).
    static func thumbnailPath(_ source: URL, size: Int) -> String {
        let encoded = source.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "/unsafe/rs:fit:\(size):\(size)/plain/\(encoded)@png"
    }
}

/// Test images and what is on a disk.
enum TrustFixture {
    /// A PNG of `width`×`height` made by our encoder; `seed` makes it distinct.
    static func png(width: Int, height: Int, seed: Int = 0) throws -> Data {
        var pixels = ImageFixtures.gradient(width: width, height: height)
        pixels[0, 0] = RGBA8(r: UInt8(seed % 256), g: UInt8(seed / 256 % 256), b: 3, a: 255)
        return try PNGCoder().encode(Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions())
    }

    /// The width and height a PNG's header states.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count >= 24, bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// Whether any file under `directory` holds exactly `bytes`.
    static func anyFile(under directory: URL, equals bytes: Data) -> Bool {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return false }
        for case let file as URL in files {
            if let contents = try? Data(contentsOf: file), contents == bytes { return true }
        }
        return false
    }
}

