import Foundation
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// Fetches 2,000 images of 10 KB and 50 of 5 MB from a loopback server with `HTTPImageLoader`
/// (6 at once), then the same URLs with `curl --parallel --parallel-max 6` against the same
/// server, and prints images/s and MB/s for both (the median of `runs` rounds).
@main
struct LoaderBench {
    struct Workload {
        var name: String
        var paths: [String]
        var bytesEach: Int
    }

    static func main() async throws {
        let runs = max(1, Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 3)
        let server = try await LoopbackHTTPServer.start()
        let workloads = [
            Workload(name: "2000 x 10 KB", paths: (0..<2_000).map { "/small/\($0).png" }, bytesEach: 10 * 1024),
            Workload(name: "50 x 5 MB", paths: (0..<50).map { "/large/\($0).png" }, bytesEach: 5 * 1024 * 1024),
        ]
        for workload in workloads {
            let response = TestResponse.ok(Data((0..<workload.bytesEach).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
            for path in workload.paths { server.route(path, response: response) }
        }
        let loader = HTTPImageLoader()
        print("workload        client                      images/s        MB/s   (median of \(runs))")
        for workload in workloads {
            let urls = workload.paths.map { server.url($0) }
            var ourSamples: [Double] = []
            for _ in 0..<runs {
                ourSamples.append(try await fetchWithLoader(loader, urls: urls, bytesEach: workload.bytesEach))
            }
            let ours = median(ourSamples)
            report(workload, "WebImage HTTPImageLoader", seconds: ours)
            var curlSamples: [Double] = []
            for _ in 0..<runs {
                guard let sample = try curlSeconds(urls: urls) else { break }
                curlSamples.append(sample)
            }
            if curlSamples.isEmpty {
                print("\(workload.name): curl not found, anchor skipped")
            } else {
                let curl = median(curlSamples)
                report(workload, "curl --parallel-max 6", seconds: curl)
                print("\(workload.name): curl time / our time = \(String(format: "%.2f", curl / ours))")
            }
        }
        try await loader.shutdown()
        await server.shutdown()
    }

    static func report(_ workload: Workload, _ client: String, seconds: Double) {
        let images = Double(workload.paths.count)
        let megabytes = images * Double(workload.bytesEach) / 1_000_000
        print(
            workload.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                + client.padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(format: "%10.0f  %10.1f", images / seconds, megabytes / seconds))
    }

    static func fetchWithLoader(_ loader: HTTPImageLoader, urls: [URL], bytesEach: Int) async throws -> Double {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for url in urls {
                let task = loader.load(ImageLoad.Request(url: url))
                group.addTask { try await task.result().data.count }
            }
            for try await count in group where count != bytesEach {
                throw WebImageError(.badImageData, "got \(count) bytes, expected \(bytesEach)")
            }
        }
        return seconds(ContinuousClock.now - start)
    }

    static func curlSeconds(urls: [URL]) throws -> Double? {
        guard let curl = ["/usr/bin/curl", "/usr/local/bin/curl", "/opt/homebrew/bin/curl"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-curl-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: config) }
        try urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined().write(
            to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["--parallel", "--parallel-max", "6", "--silent", "--no-progress-meter", "--fail", "--config", config.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw WebImageError(.networkError, "curl exited with \(process.terminationStatus)")
        }
        return seconds(ContinuousClock.now - start)
    }

    static func median(_ samples: [Double]) -> Double {
        samples.sorted()[samples.count / 2]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
