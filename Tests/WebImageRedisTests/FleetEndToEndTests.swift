import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

/// The fleet of issue 17 end to end: `deploy/fleet/fleet.sh` starts redis-server, 3 `webimage
/// serve` nodes and nginx; 200 distinct sources on a loopback origin are requested 5 times each
/// through nginx in random order. Skipped loudly without nginx, redis-server or `webimage serve --redis`.
@Suite(.enabled(if: FleetPrerequisites.available, "needs nginx, redis-server and `webimage serve --redis`"), .serialized,
       .timeLimit(.minutes(10)))
struct FleetEndToEndTests {
    static let sources = 200
    static let repeats = 5

    /// The origin: 200 distinct PNGs made by our encoder, each request counted.
    private static func origin() async throws -> LoopbackHTTPServer {
        let origin = try await LoopbackHTTPServer.start()
        for index in 0..<sources {
            var pixels = ImageFixtures.gradient(width: 48, height: 32)
            pixels[0, 0] = RGBA8(r: UInt8(index % 256), g: UInt8(index / 256), b: 7, a: 255)
            let png = try PNGCoder().encode(Image(pixels: pixels, format: .png), as: .png, options: .init())
            origin.route("/src/\(index).png", response: .ok(png, headers: [("Cache-Control", "public, max-age=3600")]))
        }
        return origin
    }

    /// The service path of a 32 px thumbnail of `source` (unsigned: the nodes run with --allow-unsigned).
    private static func path(for source: URL) -> String {
        let encoded = source.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "/unsafe/rs:fit:32:32/plain/\(encoded)@png"
    }

    /// 1,000 requests (each source 5 times, shuffled with a fixed seed), 16 at once; `midway` runs
    /// once after 300 have completed. Returns the statuses that were not 200.
    private static func run(fleet: Fleet, origin: LoopbackHTTPServer, midway: @escaping @Sendable () async throws -> Void) async throws
        -> [String]
    {
        var order = (0..<sources).flatMap { Array(repeating: $0, count: repeats) }
        var generator = SplitMix64(seed: 17)
        order.shuffle(using: &generator)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let state = RunState()
        let work = order
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while state.completed.withLock({ $0 }) < 300 { try await Task.sleep(for: .milliseconds(10)) }
                try await midway()
            }
            for _ in 0..<16 {
                group.addTask {
                    while true {
                        let slot = state.next.withLock { value -> Int? in
                            guard value < work.count else { return nil }
                            defer { value += 1 }
                            return value
                        }
                        guard let slot else { return }
                        let source = origin.url("/src/\(work[slot]).png")
                        var request = HTTPClientRequest(url: fleet.url + path(for: source))
                        request.method = .GET
                        do {
                            let response = try await client.execute(request, timeout: .seconds(60))
                            let body = try await response.body.collect(upTo: 1 << 20)
                            if response.status.code != 200 || body.readableBytes == 0 {
                                state.failures.withLock { $0.append("\(work[slot]): \(response.status.code)") }
                            }
                        } catch {
                            state.failures.withLock { $0.append("\(work[slot]): \(error)") }
                        }
                        state.completed.withLock { $0 += 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await client.shutdown()
        return state.failures.withLock { $0 }
    }

    private static let serveArguments = ["--allow-unsigned", "--allow-host", "127.0.0.1"]

    @Test func everySourceIsFetchedFromTheOriginOnce() async throws {
        let origin = try await Self.origin()
        let fleet = try await Fleet.start(nodes: 3, serveArguments: Self.serveArguments)
        let failures = try await Self.run(fleet: fleet, origin: origin) {}
        await fleet.stop()
        #expect(failures == [])
        let counts = (0..<Self.sources).map { origin.requestCount("/src/\($0).png") }
        #expect(counts.allSatisfy { $0 == 1 }, "origin fetches per source: \(Dictionary(grouping: counts, by: { $0 }).mapValues(\.count))")
        await origin.shutdown()
    }

    @Test func killingANodeMidRunLosesNoRequest() async throws {
        let origin = try await Self.origin()
        let fleet = try await Fleet.start(nodes: 3, serveArguments: Self.serveArguments)
        let failures = try await Self.run(fleet: fleet, origin: origin) { try await fleet.killNode(1) }
        await fleet.stop()
        #expect(failures == [])
        let total = (0..<Self.sources).reduce(0) { $0 + origin.requestCount("/src/\($1).png") }
        #expect(total < Self.sources * 2, "\(total) origin fetches for \(Self.sources) sources")
        await origin.shutdown()
    }

    /// Before: with DIR under a folder nginx's workers (nobody, when started as root) cannot
    /// enter, the fleet started and then answered 500 to every request. Now a root start stops at
    /// once naming the folder; any other start is checked through nginx before it returns.
    @Test func aDirectoryNginxsWorkersCannotReachIsRefusedOrWorks() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-fleet-closed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("fleet").path
        let start = try await Tools.run(
            "/bin/bash", [Tools.fleetScript, "start", "--nodes", "1", "--no-redis", "--dir", directory, "--webimage", try Tools.webimage(),
                "--"] + Self.serveArguments)
        if getuid() == 0 {
            if start.status == 0 { _ = try? await Tools.run("/bin/bash", [Tools.fleetScript, "stop", directory]) }
            #expect(start.status == 1)
            #expect(start.stderr.contains("cannot enter \(parent.path)"), "\(start.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/fleet.env"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/node-0.pid"), "nothing was started")
        } else {
            // The workers are the invoking user, who can reach the directory.
            #expect(start.status == 0, "\(start.stderr)")
            _ = try? await Tools.run("/bin/bash", [Tools.fleetScript, "stop", directory])
        }
    }

    @Test func stoppingRedisMidRunLosesNoRequest() async throws {
        let origin = try await Self.origin()
        let fleet = try await Fleet.start(nodes: 3, serveArguments: Self.serveArguments)
        let failures = try await Self.run(fleet: fleet, origin: origin) { try await fleet.stopRedis() }
        await fleet.stop()
        #expect(failures == [])
        await origin.shutdown()
    }
}

/// Whether the fleet can run here: nginx, redis-server and a `webimage` whose `serve` takes
/// `--redis`; says loudly what is missing.
enum FleetPrerequisites {
    static let available: Bool = {
        var missing: [String] = []
        if Tools.find("nginx") == nil { missing.append("nginx") }
        if Tools.find("redis-server") == nil { missing.append("redis-server") }
        if !Tools.hasServeWithRedis() { missing.append("`webimage serve --redis`") }
        if !missing.isEmpty {
            FileHandle.standardError.write(Data("\n*** SKIPPED: the fleet end-to-end tests need \(missing.joined(separator: ", ")). ***\n\n".utf8))
        }
        return missing.isEmpty
    }()
}

/// The shared counters of one run's workers.
final class RunState: Sendable {
    let completed = Mutex(0)
    let next = Mutex(0)
    let failures = Mutex<[String]>([])
}
