import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("HTTP loader: concurrency limit, FIFO/LIFO, priorities", .timeLimit(.minutes(3)))
struct HTTPQueueTests {
    /// With one slot held by /a (parked), queues /b, /c, /d as `prepare` says, releases /a and
    /// returns the order in which the server received the requests.
    static func requestOrder(
        order: DownloadExecutionOrder,
        prepare: (HTTPImageLoader, (String) -> URL) -> [ImageLoad.Task]
    ) async throws -> [String] {
        try await valueWithServerAndLoader({
            $0.maximumConcurrentDownloads = 1
            $0.executionOrder = order
        }) { server, loader in
            let gate = TestGate()
            server.route("/a", response: parked(testBytes(100), at: gate))
            for path in ["/b", "/c", "/d"] { server.route(path, response: .ok(testBytes(100))) }
            let first = loader.load(ImageLoad.Request(url: server.url("/a")))
            await gate.waitForArrivals(1)
            let queued = prepare(loader, server.url)
            #expect(loader.queuedDownloadCount == 3)
            #expect(loader.runningDownloadCount == 1)
            gate.open()
            for task in [first] + queued { _ = try await task.result() }
            return server.log.requests.map(\.path)
        }
    }

    @Test func fifoIsTheDefaultOrder() async throws {
        let order = try await Self.requestOrder(order: .fifo) { loader, url in
            ["/b", "/c", "/d"].map { loader.load(ImageLoad.Request(url: url($0))) }
        }
        #expect(order == ["/a", "/b", "/c", "/d"])
        #expect(HTTPImageLoaderConfiguration().executionOrder == .fifo)
    }

    @Test func lifoStartsTheNewestFirst() async throws {
        let order = try await Self.requestOrder(order: .lifo) { loader, url in
            ["/b", "/c", "/d"].map { loader.load(ImageLoad.Request(url: url($0))) }
        }
        #expect(order == ["/a", "/d", "/c", "/b"])
    }

    @Test func prioritiesReorderTheQueue() async throws {
        let order = try await Self.requestOrder(order: .fifo) { loader, url in
            [("/b", ImageLoad.Priority.low), ("/c", .normal), ("/d", .high)].map {
                loader.load(ImageLoad.Request(url: url($0.0), priority: $0.1))
            }
        }
        #expect(order == ["/a", "/d", "/c", "/b"])
    }

    @Test func aPriorityChangeReordersAQueuedDownload() async throws {
        let order = try await Self.requestOrder(order: .fifo) { loader, url in
            let tasks = ["/b", "/c", "/d"].map { loader.load(ImageLoad.Request(url: url($0))) }
            tasks[2].setPriority(.high)
            tasks[0].setPriority(.low)
            return tasks
        }
        #expect(order == ["/a", "/d", "/c", "/b"])
    }

    @Test func atMostTheConfiguredNumberRunAtOnce() async throws {
        try await withServerAndLoader({ $0.maximumConcurrentDownloads = 2 }) { server, loader in
            let gate = TestGate()
            for path in ["/1", "/2", "/3"] { server.route(path, response: parked(testBytes(50), at: gate)) }
            let tasks = ["/1", "/2", "/3"].map { loader.load(ImageLoad.Request(url: server.url($0))) }
            await gate.waitForArrivals(2)
            #expect(loader.runningDownloadCount == 2)
            #expect(loader.queuedDownloadCount == 1)
            #expect(server.log.requests.count == 2)
            loader.setMaximumConcurrentDownloads(3)
            await gate.waitForArrivals(3)
            gate.open()
            for task in tasks { _ = try await task.result() }
            #expect(HTTPImageLoaderConfiguration().maximumConcurrentDownloads == 6)
        }
    }

    @Test func cancellingAQueuedLoadNeverSendsIt() async throws {
        try await withServerAndLoader({ $0.maximumConcurrentDownloads = 1 }) { server, loader in
            let gate = TestGate()
            server.route("/a", response: parked(testBytes(50), at: gate))
            server.route("/b", response: .ok(testBytes(50)))
            let first = loader.load(ImageLoad.Request(url: server.url("/a")))
            await gate.waitForArrivals(1)
            let queued = loader.load(ImageLoad.Request(url: server.url("/b")))
            queued.cancel()
            #expect(await loadError(queued)?.code == .cancelled)
            #expect(loader.queuedDownloadCount == 0)
            gate.open()
            _ = try await first.result()
            #expect(server.requestCount("/b") == 0)
        }
    }
}
