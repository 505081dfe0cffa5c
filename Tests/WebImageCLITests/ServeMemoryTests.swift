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
    /// Peak resident bytes of `webimage serve --concurrency N` answering `requests` thumbnails of
    /// as many different sources at once (each a 16 MB PNG of noise, 16 MB decoded).
    static func peak(concurrency: Int, requests: Int, origin: LoopbackHTTPServer, in directory: URL) async throws -> Int {
        let report = directory.appendingPathComponent("peak-\(concurrency).txt")
        let output = directory.appendingPathComponent("serve-\(concurrency).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let launcher = Process()
        launcher.executableURL = try BuiltProducts.executable(named: "webimage-peak-rss")
        launcher.arguments = [
            report.path, "600", try BuiltProducts.executable(named: "webimage").path, "serve", "--port", "0", "--allow-unsigned",
            "--allow-host", "127.0.0.1", "--concurrency", String(concurrency), "--queue", "100", "--no-access-log",
            "--timeout", "600",   // about memory, not deadlines: a loaded machine may need minutes for 16 sources one at a time
        ]
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
        let servicePort = port
        let source = origin.url("/big.png").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<requests {
                group.addTask {
                    let url = URL(string: "http://127.0.0.1:\(servicePort)/unsafe/rs:fit:100:100/plain/\(source)%3Fn%3D\(index)@png")!
                    var request = URLRequest(url: url)
                    request.timeoutInterval = 600
                    let (_, response) = try await URLSession.shared.data(for: request)
                    return (response as? HTTPURLResponse)?.statusCode ?? 0
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: requests))
        // The service is the launcher's only child.
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

    @Test("16 different 16 MB sources at once at --concurrency 1 stay under 400 MB")
    func floodStaysBounded() async throws {
        try await withTemporaryDirectory { directory in
            let origin = try await LoopbackHTTPServer.start()
            defer { Task { await origin.shutdown() } }
            var random = SplitMix64(seed: 16)
            let noise = (0..<(2048 * 2048 * 4)).map { _ in UInt8.random(in: 0...255, using: &random) | 0x01 }
            let pixels = PixelBuffer(width: 2048, height: 2048, alphaMode: .straight, bytes: noise)
            let big = try ImageCodersManager.standard().encode(
                Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions(compressionLevel: 1))
            origin.route("/big.png", response: .ok(big, contentType: "image/png"))
            let bytes = try await Self.peak(concurrency: 1, requests: 16, origin: origin, in: directory)
            print("serve flood: peak \(bytes / 1_048_576) MB at --concurrency 1 (16 sources of \(big.count / 1_048_576) MB)")
            #expect(bytes < 400 * 1_048_576, "peak \(bytes / 1_048_576) MB")
        }
    }
}
