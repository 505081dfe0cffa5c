import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("HTTP loader: cancelAll and cancel by URL", .timeLimit(.minutes(3)))
struct HTTPCancelAllTests {
    @Test func cancelAllEndsEveryCallerOfEveryDownloadQueuedOrRunning() async throws {
        try await withServerAndLoader({ $0.maximumConcurrentDownloads = 2 }) { server, loader in
            let gate = TestGate()
            for name in ["a", "b", "c"] { server.route("/\(name)", response: parked(testBytes(1_000), at: gate)) }
            let tasks = ["a", "a", "b", "c"].map { loader.load(ImageLoad.Request(url: server.url("/\($0)"))) }
            await gate.waitForArrivals(2)
            #expect(loader.queuedDownloadCount == 1)
            loader.cancelAll()
            for task in tasks { #expect(await loadError(task)?.code == .cancelled) }
            while loader.runningDownloadCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(loader.queuedDownloadCount == 0)
            gate.open()
            // The loader still loads.
            #expect(try await loader.load(ImageLoad.Request(url: server.url("/c"))).result().data == testBytes(1_000))
        }
    }

    @Test func cancellingOneURLLeavesTheOthersRunning() async throws {
        try await withServerAndLoader { server, loader in
            let gate = TestGate()
            server.route("/drop", response: parked(testBytes(500), at: gate))
            server.route("/keep", response: parked(testBytes(700), at: gate))
            let dropped = (0..<2).map { _ in loader.load(ImageLoad.Request(url: server.url("/drop"))) }
            let kept = loader.load(ImageLoad.Request(url: server.url("/keep")))
            await gate.waitForArrivals(2)
            loader.cancelLoads(of: server.url("/drop"))
            for task in dropped { #expect(await loadError(task)?.code == .cancelled) }
            #expect(loader.callerCount(for: server.url("/drop")) == 0)
            gate.open()
            let keptData = try await kept.result().data
            #expect(keptData == testBytes(700))
        }
    }

    @Test func theLoadersManagerForwardsToItsLoaders() async throws {
        try await withServerAndLoader { server, loader in
            let gate = TestGate()
            server.route("/m", response: parked(testBytes(100), at: gate))
            let loaders = ImageLoadersManager.standard(http: loader)
            let first = loaders.load(ImageLoad.Request(url: server.url("/m")))
            await gate.waitForArrivals(1)
            loaders.cancelLoads(of: server.url("/m"))
            #expect(await loadError(first)?.code == .cancelled)
            let second = loaders.load(ImageLoad.Request(url: server.url("/m")))
            await gate.waitForArrivals(2)
            loaders.cancelAll()
            #expect(await loadError(second)?.code == .cancelled)
            gate.open()
        }
    }
}
