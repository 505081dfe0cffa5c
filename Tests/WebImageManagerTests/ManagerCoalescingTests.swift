import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@Suite("ImageManager: coalescing and cancellation", .timeLimit(.minutes(3)))
struct ManagerCoalescingTests {
    @Test func oneURLFromAHundredTasksIsOneDownloadAndOneDecode() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/one.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let url = harness.server.url("/one.png")
            let tasks = (0..<100).map { _ in manager.task(for: ImageRequest(url: url)) }
            await gate.waitForArrivals(1)
            #expect(manager.runningTaskCounts.finals == 1)
            #expect(manager.runningTaskCounts.fetches == 1)
            gate.open()
            var images: [Image] = []
            for task in tasks { images.append(try await task.response.image) }
            #expect(harness.server.requestCount("/one.png") == 1)
            #expect(harness.coders.decodeCount == 1)
            #expect(images.allSatisfy { $0 === images[0] })
        }
    }

    @Test func oneCallerCancelsAndTheOthersStillComplete() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/c.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let url = harness.server.url("/c.png")
            let tasks = (0..<3).map { _ in manager.task(for: ImageRequest(url: url)) }
            await gate.waitForArrivals(1)
            tasks[0].cancel()
            #expect(await failureCode { try await tasks[0].response } == .cancelled)
            gate.open()
            #expect(try await tasks[1].response.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(try await tasks[2].response.cacheType == .none)
            #expect(harness.server.requestCount("/c.png") == 1)
        }
    }

    @Test func allCallersCancelAndTheDownloadStops() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/s.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let url = harness.server.url("/s.png")
            let tasks = (0..<2).map { _ in manager.task(for: ImageRequest(url: url)) }
            await gate.waitForArrivals(1)
            for task in tasks { task.cancel() }
            for task in tasks { #expect(await failureCode { try await task.response } == .cancelled) }
            // The client closed the connection while the response was parked at the gate.
            await harness.server.waitUntil { $0.outcomes("/s.png").contains(.clientDisconnected) }
            #expect(harness.coders.decodeCount == 0)
            #expect(manager.runningTaskCounts.finals == 0)
            // A later request starts a new download.
            gate.open()
            #expect(try await manager.image(for: url).cacheType == .none)
            #expect(harness.server.requestCount("/s.png") == 2)
        }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/w.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let url = harness.server.url("/w.png")
            let waiting = Task { try await manager.image(for: url) }
            await gate.waitForArrivals(1)
            waiting.cancel()
            #expect(await failureCode { try await waiting.value } == .cancelled)
            await harness.server.waitUntil { $0.outcomes("/w.png").contains(.clientDisconnected) }
        }
    }

    @Test func requestsThatDifferOnlyInTheirTransformerShareTheDownloadAndDecode() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/v.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let url = harness.server.url("/v.png")
            var resize = ImageRequest(url: url)
            resize.transformer = ResizeTransformer(size: PixelSize(width: 8, height: 8))
            var crop = ImageRequest(url: url)
            crop.transformer = CropTransformer(rect: PixelRect(x: 4, y: 4, width: 4, height: 4))
            let tasks = [manager.task(for: resize), manager.task(for: crop), manager.task(for: ImageRequest(url: url))]
            await gate.waitForArrivals(1)
            #expect(manager.runningTaskCounts.finals == 3)
            #expect(manager.runningTaskCounts.fetches == 1)
            gate.open()
            #expect(try await tasks[0].response.image.pixelSize == PixelSize(width: 8, height: 8))
            #expect(try await tasks[1].response.image.pixelSize == PixelSize(width: 4, height: 4))
            #expect(try await tasks[2].response.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(harness.server.requestCount("/v.png") == 1)
            #expect(harness.coders.decodeCount == 1)
        }
    }

    @Test func priorityChangesWhileQueued() async throws {
        try await withHarness(maximumConcurrentDownloads: 1) { harness in
            let gate = TestGate()
            harness.server.route("/first.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            harness.server.route("/low.png", response: .ok(try Fixture.png(seed: 1)))
            harness.server.route("/raised.png", response: .ok(try Fixture.png(seed: 2)))
            let manager = try harness.makeManager()
            let first = manager.task(for: ImageRequest(url: harness.server.url("/first.png")))
            await gate.waitForArrivals(1)
            let low = manager.task(for: ImageRequest(url: harness.server.url("/low.png")))
            let raised = manager.task(for: ImageRequest(url: harness.server.url("/raised.png"), options: [.lowPriority]))
            await harness.http.waitForQueued(2)
            raised.priority = .high
            gate.open()
            _ = try await first.response
            _ = try await low.response
            _ = try await raised.response
            let order = harness.server.log.requests.map(\.path)
            #expect(order == ["/first.png", "/raised.png", "/low.png"])
        }
    }
}

extension HTTPImageLoader {
    /// Waits until `count` downloads wait in the queue. The loader reports no event when it
    /// queues a download, so this polls; the outcome never depends on how long it takes.
    func waitForQueued(_ count: Int) async {
        while queuedDownloadCount < count { try? await Task.sleep(for: .milliseconds(1)) }
    }
}
