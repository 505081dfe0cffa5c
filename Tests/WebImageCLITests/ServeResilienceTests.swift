import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 24, finding 10: slow clients, shutdown and a broken cache directory, on the real command.
@Suite("webimage serve: slow clients, draining, a broken cache", .serialized, .timeLimit(.minutes(5)))
struct ServeResilienceTests {
    /// A raw TCP connection to 127.0.0.1:`port`.
    static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
        return fd
    }

    /// Sends a request head to `fd` one byte every 200 ms, never finishing it.
    static func trickleHead(_ fd: Int32) -> Task<Void, Never> {
        Task {
            for byte in Array("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) {
                var value = byte
                guard send(fd, &value, 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Whether the server has closed `fd` (a read returns 0 or fails) within `limit`.
    static func closedByPeer(_ fd: Int32, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        var buffer = [UInt8](repeating: 0, count: 256)
        while ContinuousClock.now < deadline {
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&poll, 1, 50) > 0 {
                let got = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if got <= 0 { return true }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Trickles a request head into `fd` (``trickleHead(_:)``) and returns how long the server
    /// took to close the connection, nil when it did not within 20 s.
    static func timeToCut(_ fd: Int32) async -> Duration? {
        let start = ContinuousClock.now
        let trickle = trickleHead(fd)
        defer { trickle.cancel() }
        guard await closedByPeer(fd, within: .seconds(20)) else { return nil }
        return ContinuousClock.now - start
    }

    /// Before: a client sending its headers a byte at a time was never closed (19,950 held at once).
    @Test("a connection that trickles its headers is closed at the header timeout")
    func slowHeadersAreCut() async throws {
        try await withTemporaryDirectory { directory in
            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--no-access-log", "--header-timeout", "1", "--drain-delay", "0"], in: directory)
            let fd = try Self.connect(served.port)
            defer { close(fd) }
            // One byte every 200 ms: an idle timeout would never fire.
            let elapsed = try #require(await Self.timeToCut(fd), "the trickling connection was never closed")
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(15), "\(elapsed)")
            // An ordinary request is unaffected.
            #expect(try await served.get("/health").status == 200)
            #expect(try await served.terminate() == 0)
        }
    }

    /// The deadline starts again after each response: on a kept-alive connection, a second head
    /// trickled a byte at a time is cut too, while prompt requests on it go on being answered.
    @Test("on a kept-alive connection the wait for each next head has the header timeout")
    func slowSecondHeadIsCut() async throws {
        try await withTemporaryDirectory { directory in
            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--no-access-log", "--header-timeout", "3", "--drain-delay", "0"], in: directory)
            let fd = try Self.connect(served.port)
            defer { close(fd) }
            // Four prompt requests, 1 s apart: more than the timeout in all, a third of it between
            // two. A starved test process can oversleep; a gap that really reached the timeout
            // proves nothing either way, so it is reported and not judged.
            var lastAnswer = ContinuousClock.now
            var starved = false
            for index in 0..<4 where !starved {
                let gap = ContinuousClock.now - lastAnswer
                var request = Array("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
                let sent = send(fd, &request, request.count, Int32(MSG_NOSIGNAL))
                var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = Glibc.poll(&poll, 1, 10_000)
                var buffer = [UInt8](repeating: 0, count: 4096)
                let received = recv(fd, &buffer, buffer.count, 0)
                lastAnswer = ContinuousClock.now
                if index > 0, gap >= .milliseconds(2_500) {
                    print("kept-alive test: request \(index) came \(gap) after the last answer (starved); not judged")
                    starved = true
                    continue
                }
                #expect(sent == request.count)
                #expect(received > 0, "the connection was closed between prompt requests (gap \(gap))")
                if index < 3 { try await Task.sleep(for: .seconds(1)) }
            }
            if !starved {
                let elapsed = await Self.timeToCut(fd)
                #expect(elapsed.map { $0 >= .milliseconds(2_500) && $0 < .seconds(18) } == true, "\(String(describing: elapsed))")
            }
            #expect(try await served.terminate() == 0)
        }
    }

    /// Before: after SIGTERM the server stopped accepting at once, so no probe ever saw a 503.
    @Test("after SIGTERM /ready answers 503 for the drain delay, then the process exits 0")
    func readyIs503WhileDraining() async throws {
        try await withTemporaryDirectory { directory in
            let served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--no-access-log", "--drain-delay", "2"], in: directory)
            #expect(try await served.get("/ready").status == 200)
            kill(served.process.processIdentifier, SIGTERM)
            var sawNotReady = false
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, !sawNotReady {
                if let ready = try? await served.get("/ready"), ready.status == 503 {
                    sawNotReady = true
                    #expect(try await served.get("/health").status == 200, "still serving while draining")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(sawNotReady)
            #expect(try await served.terminate() == 0)
        }
    }

    /// Before: a cache directory that could not be used made serve exit 1; a failing store was silent.
    @Test("an unusable cache directory or failing stores: served uncached, with a warning and a metric")
    func brokenCacheDirectory() async throws {
        try await withTemporaryDirectory { directory in
            try Fixture.png().write(to: directory.appendingPathComponent("a.png"))
            // A file where the directory should be.
            let blocked = directory.appendingPathComponent("not-a-directory")
            try Data("x".utf8).write(to: blocked)
            var served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--local-root", directory.path, "--cache-dir", blocked.path + "/cache", "--drain-delay", "0"],
                in: directory)
            #expect(try await served.get("/unsafe/w:20/plain/local:///a.png@png").status == 200)
            #expect(String(decoding: try await served.get("/metrics").body, as: UTF8.self).contains("webimage_disk_cache_unavailable 1"))
            #expect(try await served.terminate() == 0)
            #expect(try String(contentsOf: served.errors, encoding: .utf8).contains("serving without a disk cache"))

            // A cache that goes away under the running service (as a full disk fails stores).
            let cache = directory.appendingPathComponent("cache")
            served = try await ServeCommandTests.Served.start(
                ["--port", "0", "--allow-unsigned", "--local-root", directory.path, "--cache-dir", cache.path, "--drain-delay", "0"],
                in: directory)
            // A file where the directory was: no store can recreate it.
            try FileManager.default.removeItem(at: cache)
            try Data("x".utf8).write(to: cache)
            for width in 21...24 {
                #expect(try await served.get("/unsafe/w:\(width)/plain/local:///a.png@png").status == 200)
            }
            var failures = 0
            for _ in 0..<100 where failures == 0 {
                let metrics = String(decoding: try await served.get("/metrics").body, as: UTF8.self)
                failures = metrics.split(separator: "\n").first { $0.hasPrefix("webimage_cache_write_failures_total ") }
                    .flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(failures > 0)
            #expect(try await served.terminate() == 0)
            #expect(try String(contentsOf: served.errors, encoding: .utf8).contains("a cache store failed"))
        }
    }
}

/// Issue 24, finding 5: after a spike the process kept 1.29 GB.
@Suite("webimage serve gives memory back", .serialized, .timeLimit(.minutes(5)))
struct ServeMemoryReturnTests {
    static func residentBytes(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test("resident memory falls back within 2× of idle after a spike of large renders")
    func memoryFallsBackAfterASpike() async throws {
        #if os(Linux)
            try await withTemporaryDirectory { directory in
                // 16 MB decoded: large enough that the pool and the heap matter.
                let png = try ServeMemoryTests.noisePNG(seed: 5)
                try png.write(to: directory.appendingPathComponent("big.png"))
                let served = try await ServeCommandTests.Served.start(
                    ["--port", "0", "--allow-unsigned", "--local-root", directory.path, "--no-access-log", "--concurrency", "2",
                     "--timeout", "600", "--drain-delay", "0"],
                    in: directory)
                let pid = served.process.processIdentifier
                #expect(try await served.get("/unsafe/w:16/plain/local:///big.png@png").status == 200)
                try await Task.sleep(for: .seconds(2))
                let idle = Self.residentBytes(pid)
                // The spike is the peak seen while the renders run: sampled every 10 ms, since
                // the service may give much of it back before the last response arrives.
                let sampler = Task {
                    var peak = Self.residentBytes(pid)
                    while !Task.isCancelled {
                        peak = max(peak, Self.residentBytes(pid))
                        try? await Task.sleep(for: .milliseconds(10))
                    }
                    return peak
                }
                let statuses = try await ServeMemoryTests.getAll(
                    [1900, 2000, 2010, 2020].map { "/unsafe/rs:fit:\($0):\($0)/plain/local:///big.png@jpg" }, port: served.port)
                sampler.cancel()
                #expect(statuses == [200, 200, 200, 200])
                let spike = max(await sampler.value, Self.residentBytes(pid))
                var after = spike
                for _ in 0..<100 where after > 2 * idle {
                    try await Task.sleep(for: .milliseconds(100))
                    after = Self.residentBytes(pid)
                }
                print("serve memory: idle \(idle >> 20) MB, spike \(spike >> 20) MB, after \(after >> 20) MB")
                #expect(spike > idle + 40 << 20, "the spike was no spike: idle \(idle >> 20) MB, spike \(spike >> 20) MB")
                #expect(after <= 2 * idle, "idle \(idle >> 20) MB, spike \(spike >> 20) MB, after \(after >> 20) MB")
                #expect(try await served.terminate() == 0)
            }
        #endif
    }
}

/// Issue 24, finding 3: a flood of the heaviest requests stays within the memory budget.
@Suite("webimage serve memory budget", .serialized, .timeLimit(.minutes(6)))
struct ServeMemoryBudgetTests {
    @Test("six JPEG XL renders of a 16 MP source at --concurrency 4 stay within --memory-budget + 25 %")
    func floodStaysWithinTheBudget() async throws {
        try await Self.flood(format: "jxl", sizes: 2040...2045, budget: 400 << 20, seed: 3)
    }

    /// Every other output format: four of the heaviest renders at once, a 16 MP source to a
    /// 2040-pixel result, with a budget that admits only some of them together.
    @Test(
        "four 16 MP renders at --concurrency 4 stay within --memory-budget + 25 % in every output format",
        arguments: ["jpg", "png", "webp", "avif", "heic", "gif", "tiff"])
    func everyFormatStaysWithinTheBudget(format: String) async throws {
        try await Self.flood(format: format, sizes: 2040...2043, budget: 300 << 20, seed: 4)
    }

    /// Renders a 16 MP noise PNG (with alpha) to each of `sizes` as `format`, all at once, and
    /// checks the server's peak resident size against `budget` + 25 % + the process's own memory.
    static func flood(format: String, sizes: ClosedRange<Int>, budget: Int, seed: UInt64) async throws {
        #if os(Linux)
            try await withTemporaryDirectory { directory in
                try ServeMemoryTests.noisePNG(seed: seed).write(to: directory.appendingPathComponent("big.png"))
                let (launcher, port, report) = try await ServeMemoryTests.startMeasured(
                    [
                        "--port", "0", "--allow-unsigned", "--local-root", directory.path, "--concurrency", "4", "--memory-budget",
                        String(budget), "--no-access-log", "--timeout", "600", "--drain-delay", "0",
                    ], in: directory)
                let statuses = try await ServeMemoryTests.getAll(
                    sizes.map { "/unsafe/rs:fit:\($0):\($0)/plain/local:///big.png@\(format)" }, port: port)
                #expect(statuses == Array(repeating: 200, count: sizes.count))
                let peak = try await ServeMemoryTests.stopMeasured(launcher, report: report)
                print("serve memory budget: \(format): peak \(peak >> 20) MB for a budget of \(budget >> 20) MB")
                // The budget covers the work; the process's own memory (runtime, libraries, caches) comes on top.
                let processOwn = 96 << 20
                #expect(peak <= budget + budget / 4 + processOwn, "\(format): peak \(peak >> 20) MB for a budget of \(budget >> 20) MB")
            }
        #endif
    }
}
