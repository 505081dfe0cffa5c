import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// A flood of big sources stays within memory: admission control lets `--concurrency` images be
/// decoded at once, whatever the number of requests. The peak is measured by `webimage-peak-rss`
/// (the service is its child; SIGTERM goes to the service, which exits gracefully).
@Suite("webimage serve memory", .serialized)
struct ServeMemoryTests {
    /// `webimage serve ARGUMENTS` as the child of `webimage-peak-rss`, once it listens: the
    /// launcher, the port, and the file the peak goes to.
    static func startMeasured(_ arguments: [String], in directory: URL) async throws -> (launcher: Process, port: Int, report: URL) {
        let name = UUID().uuidString
        let report = directory.appendingPathComponent("peak-\(name).txt")
        let output = directory.appendingPathComponent("serve-\(name).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let launcher = Process()
        launcher.executableURL = try BuiltProducts.executable(named: "webimage-peak-rss")
        launcher.arguments = [report.path, "600", try BuiltProducts.executable(named: "webimage").path, "serve"] + arguments
        launcher.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("WEBIMAGE_") }
        launcher.standardOutput = try FileHandle(forWritingTo: output)
        launcher.standardError = FileHandle.nullDevice
        try launcher.run()
        var port = 0
        while port == 0, launcher.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first,
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            {
                port = object["port"] as? Int ?? 0
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return (launcher, port, report)
    }

    /// SIGTERM to the service (the launcher's only child), then its peak resident bytes.
    static func stopMeasured(_ launcher: Process, report: URL) async throws -> Int {
        let children = try String(contentsOfFile: "/proc/\(launcher.processIdentifier)/task/\(launcher.processIdentifier)/children", encoding: .utf8)
        let service = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        kill(service, SIGTERM)
        // Poll rather than block a thread of the (2-thread) cooperative pool.
        while launcher.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        launcher.waitUntilExit()
        #expect(launcher.terminationStatus == 0)
        let kilobytes = try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int(kilobytes) ?? .max / 1024) * 1024
    }

    /// A session that waits up to 10 minutes (on Linux the session's own 60 s request timeout
    /// bounds a request's, and heavy renders on a loaded machine outlast it).
    static let patientSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        configuration.timeoutIntervalForResource = 900
        return URLSession(configuration: configuration)
    }()

    /// GETs every path at once from 127.0.0.1:`port`; their statuses.
    static func getAll(_ paths: [String], port: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for path in paths {
                group.addTask {
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                    request.timeoutInterval = 600
                    let (_, response) = try await patientSession.data(for: request)
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Peak resident bytes of `webimage serve --concurrency N` answering `requests` thumbnails of
    /// as many different sources at once (each a 16 MB PNG of noise, 16 MB decoded).
    static func peak(concurrency: Int, requests: Int, origin: LoopbackHTTPServer, in directory: URL) async throws -> Int {
        let (launcher, port, report) = try await startMeasured(
            [
                "--port", "0", "--allow-unsigned", "--allow-host", "127.0.0.1", "--concurrency", String(concurrency), "--queue", "100",
                "--no-access-log",
                "--timeout", "600",  // about memory, not deadlines: a loaded machine may need minutes for 16 sources one at a time
            ], in: directory)
        let source = origin.url("/big.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let statuses = try await getAll(
            (0..<requests).map { "/unsafe/rs:fit:100:100/plain/\(source)%3Fn%3D\($0)@png" }, port: port)
        #expect(statuses == Array(repeating: 200, count: requests))
        return try await stopMeasured(launcher, report: report)
    }

    /// A PNG of 2048 × 2048 noise (16 MB decoded), fast to write.
    static func noisePNG(seed: UInt64) throws -> Data {
        var random = SplitMix64(seed: seed)
        let noise = (0..<(2048 * 2048 * 4)).map { _ in UInt8.random(in: 0...255, using: &random) | 0x01 }
        let pixels = PixelBuffer(width: 2048, height: 2048, alphaMode: .straight, bytes: noise)
        return try ImageCodersManager.standard().encode(
            Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions(compressionLevel: 1))
    }

    @Test("16 different 16 MB sources at once at --concurrency 1 stay under 400 MB")
    func floodStaysBounded() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            let big = try Self.noisePNG(seed: 16)
            origin.route("/big.png", response: .ok(big, contentType: "image/png"))
            let bytes = try await Self.peak(concurrency: 1, requests: 16, origin: origin, in: directory)
            print("serve flood: peak \(bytes / 1_048_576) MB at --concurrency 1 (16 sources of \(big.count / 1_048_576) MB)")
            #expect(bytes < 400 * 1_048_576, "peak \(bytes / 1_048_576) MB")
        }
    }
}
