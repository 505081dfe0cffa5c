import Foundation
import Logging
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting
import WebImageTesting

@Suite("HTTP loader: progress, events, log lines, metrics, manager", .timeLimit(.minutes(3)))
struct HTTPEventsTests {
    @Test func progressComesForEveryChunkAndEndsWithTheTotal() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(10_000)
            server.route("/p", response: .trickle(data, bytesPerStep: 1_000, interval: .milliseconds(2)))
            var request = ImageLoad.Request(url: server.url("/p"))
            request.reportsPartialData = true
            let (events, result) = try await collectEvents(loader.load(request))
            let progress = progressEvents(events)
            #expect(!progress.isEmpty)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.receivedBytes < $1.receivedBytes })
            #expect(progress.allSatisfy { $0.expectedBytes == 10_000 && $0.partialData == data.prefix($0.receivedBytes) })
            #expect(progress.last?.receivedBytes == 10_000)
            #expect(progress.last?.fractionCompleted == 1)
            #expect(result?.data == data)
        }
    }

    @Test func minimumProgressIntervalThrottlesButTheLastAlwaysComes() async throws {
        try await withServerAndLoader({ $0.minimumProgressInterval = 0.3 }) { server, loader in
            let data = testBytes(10_000)
            server.route("/t", response: .trickle(data, bytesPerStep: 500, interval: .milliseconds(1)))
            let (events, _) = try await collectEvents(loader.load(ImageLoad.Request(url: server.url("/t"))))
            let received = progressEvents(events).map(\.receivedBytes)
            #expect(received.count <= 5)
            #expect(received.last == 10_000)
            let steps = zip(received, received.dropFirst()).map { $1 - $0 }
            #expect(steps.dropLast().allSatisfy { $0 >= 3_000 })
        }
    }

    @Test func loaderEventsAreStartedResponseStoppedFinished() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/e", response: .ok(testBytes(100)))
            server.route("/e404", response: .status(404))
            let stream = loader.events()
            let url = server.url("/e")
            _ = try await loader.load(ImageLoad.Request(url: url)).result()
            _ = await loadError(loader.load(ImageLoad.Request(url: server.url("/e404"))))
            var seen: [String] = []
            for await event in stream {
                switch event {
                case .started(let u): seen.append("started \(u.path)")
                case .receivedResponse(let u, let status): seen.append("response \(u.path) \(status)")
                case .stopped(let u, let error): seen.append("stopped \(u.path) \(error?.code.rawValue ?? "ok")")
                case .finished(let u, let metrics): seen.append("finished \(u.path) \(metrics.receivedBytes)")
                case .retrying(let u, let retry): seen.append("retrying \(u.path) \(retry.attempt)")
                case .retryRefused(let u, _): seen.append("retry refused \(u.path)")
                }
                if seen.last?.hasPrefix("stopped /e404") == true { break }
            }
            #expect(seen == [
                "started /e", "response /e 200", "stopped /e ok", "finished /e 100",
                "started /e404", "response /e404 404", "stopped /e404 invalidDownloadStatusCode",
            ])
        }
    }

    @Test func eventsAreLoggedAtDebugLevel() async throws {
        let lines = CapturedLog()
        let logger = lines.logger(label: "test.loader", level: .debug)
        try await withServerAndLoader({ $0.logger = logger }) { server, loader in
            server.route("/log", response: .ok(testBytes(10)))
            _ = try await loader.load(ImageLoad.Request(url: server.url("/log"))).result()
        }
        let messages = lines.lines
        for expected in ["download started", "download received response", "download finished"] {
            #expect(messages.contains { $0.hasPrefix(expected) }, "missing \(expected) in \(messages)")
        }
        #expect(messages.contains { $0.contains("bytes=10") })
    }

    @Test func metricsCountBytesAndTimes() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/m", response: .ok(testBytes(12_345)))
            let metrics = try await loader.load(ImageLoad.Request(url: server.url("/m"))).result().metrics
            #expect(metrics.receivedBytes == 12_345)
            let firstByte = try #require(metrics.timeToFirstByte)
            #expect(firstByte <= metrics.totalDuration)
            #expect(metrics.redirectCount == 0)
        }
    }

    @Test func theStandardManagerHoldsHTTPFileAndDataLoaders() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/x", response: .ok(testBytes(10)))
            let manager = ImageLoadersManager.standard(http: loader)
            #expect(manager.loaders.map(\.name) == ["file", "data", "http"])
            let httpData = try await manager.load(ImageLoad.Request(url: server.url("/x"))).result().data
            #expect(httpData == testBytes(10))
            let dataURLData = try await manager.load(ImageLoad.Request(url: URL(string: "data:,hi")!)).result().data
            #expect(dataURLData == Data("hi".utf8))
            #expect(manager.canLoad(URL(fileURLWithPath: "/tmp/a.png")))
            #expect(!loader.canLoad(URL(string: "ftp://127.0.0.1/a")!))
        }
    }

    @Test func dataURLsAndFilesNeverReachTheHTTPLoader() async throws {
        try await withServerAndLoader { _, loader in
            #expect(!loader.canLoad(URL(string: "data:,x")!))
            #expect(loader.canLoad(URL(string: "HTTPS://127.0.0.1/a")!))
        }
    }
}

