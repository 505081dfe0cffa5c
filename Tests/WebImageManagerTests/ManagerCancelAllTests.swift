import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

/// `cancelAll()` ends every running task and its downloads and leaves the manager usable;
/// `invalidate()` does the same and refuses every later request with a typed error.
@Suite("ImageManager: cancelAll and invalidate", .timeLimit(.minutes(3)))
struct ManagerCancelAllTests {
    /// Starts tasks for three parked URLs (one of them with a request modifier, a job shared with
    /// no one) and returns them once each download has reached the server.
    static func parkedTasks(_ harness: ManagerHarness, manager: ImageManager, gate: TestGate) async throws -> [ImageTask] {
        let png = try Fixture.png()
        for name in ["a", "b", "c"] {
            harness.server.route("/\(name).png", response: TestResponse(headers: [("Content-Type", "image/png")], body: [.wait(gate)] + TestResponse.steps(png)))
        }
        var solo = ImageRequest(url: harness.server.url("/c.png"))
        solo.loading.requestModifier = ImageRequestModifier { $0 }
        let requests = [ImageRequest(url: harness.server.url("/a.png")), ImageRequest(url: harness.server.url("/a.png")),
                        ImageRequest(url: harness.server.url("/b.png")), solo]
        let tasks = requests.map { manager.task(for: $0) }
        await gate.waitForArrivals(3)
        return tasks
    }

    @Test func cancelAllEndsEveryTaskAndItsDownloadThenServesAgain() async throws {
        try await withHarness { harness in
            let manager = try harness.makeManager()
            let gate = TestGate()
            let tasks = try await Self.parkedTasks(harness, manager: manager, gate: gate)
            #expect(manager.runningTaskCounts.finals == 3)
            manager.cancelAll()
            for task in tasks {
                #expect(await failureCode { try await task.response } == .cancelled)
            }
            #expect(manager.runningTaskCounts == (finals: 0, fetches: 0))
            // The loader's transfers stop: no one waits for them any more.
            while harness.http.runningDownloadCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
            gate.open()
            // The manager still serves.
            let response = try await manager.image(for: harness.server.url("/a.png"))
            #expect(response.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(!manager.isInvalidated)
        }
    }

    @Test func invalidateCancelsAndRefusesEveryLaterRequestMemoryHitsIncluded() async throws {
        try await withHarness { harness in
            let manager = try harness.makeManager()
            harness.server.route("/cached.png", response: .ok(try Fixture.png(seed: 2)))
            let cachedURL = harness.server.url("/cached.png")
            _ = try await manager.image(for: cachedURL)
            #expect(manager.cachedImage(for: ImageRequest(url: cachedURL)) != nil)
            let gate = TestGate()
            let tasks = try await Self.parkedTasks(harness, manager: manager, gate: gate)
            manager.invalidate()
            for task in tasks {
                #expect(await failureCode { try await task.response } == .cancelled)
            }
            #expect(manager.isInvalidated)
            #expect(await failureCode { try await manager.image(for: cachedURL) } == .invalidated)
            #expect(manager.cachedImage(for: ImageRequest(url: cachedURL)) == nil)
            #expect(await failureCode { try await manager.task(for: ImageRequest(url: cachedURL)).response } == .invalidated)
            gate.open()
            #expect(harness.server.requestCount("/cached.png") == 1)
        }
    }

    @Test func aPrefetcherOverAnInvalidatedManagerFailsEachURL() async throws {
        try await withHarness { harness in
            let manager = try harness.makeManager()
            harness.server.route("/p.png", response: .ok(try Fixture.png()))
            manager.invalidate()
            let prefetcher = ImagePrefetcher(manager: manager)
            let token = prefetcher.prefetch([harness.server.url("/p.png")])
            let completion = await token.completion
            #expect(completion.failed == 1)
            #expect(harness.server.requestCount("/p.png") == 0)
        }
    }
}
