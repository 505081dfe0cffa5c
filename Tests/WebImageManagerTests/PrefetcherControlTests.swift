import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@Suite("ImagePrefetcher: requests, pause, priority", .timeLimit(.minutes(3)))
struct PrefetcherControlTests {
    @Test func pauseStopsNewStartsAndResumeContinues() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/p0.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            for index in 1..<4 { harness.server.route("/p\(index).png", response: .ok(try Fixture.png(seed: index))) }
            harness.server.route("/sentinel.png", response: .ok(try Fixture.png(seed: 9)))
            let manager = try harness.makeManager()
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 1)
            let token = prefetcher.prefetch((0..<4).map { harness.server.url("/p\($0).png") })
            await gate.waitForArrivals(1)
            prefetcher.pause()
            #expect(prefetcher.isPaused)
            gate.open()
            // The running load finishes while paused…
            for await progress in token.progress where progress.completed == 1 { break }
            // …and nothing new starts: a request made after it reaches the server alone.
            _ = try await manager.image(for: harness.server.url("/sentinel.png"))
            #expect(harness.server.log.requests.map(\.path) == ["/p0.png", "/sentinel.png"])
            #expect(token.current.completed == 1)

            prefetcher.resume()
            let summary = await token.completion
            #expect(summary.finished == 4 && summary.failed == 0)
            #expect(harness.server.log.requests.map(\.path) == ["/p0.png", "/sentinel.png", "/p1.png", "/p2.png", "/p3.png"])
        }
    }

    @Test func cancellingWhilePausedCountsTheWaitingEntries() async throws {
        try await withHarness { harness in
            for index in 0..<3 { harness.server.route("/c\(index).png", response: .ok(try Fixture.png(seed: index))) }
            let manager = try harness.makeManager()
            let prefetcher = ImagePrefetcher(manager: manager)
            prefetcher.pause()
            let token = prefetcher.prefetch((0..<3).map { harness.server.url("/c\($0).png") })
            token.cancel()
            let summary = await token.completion
            #expect(summary.cancelledCount == 3)
            #expect(harness.server.log.requests.isEmpty)
        }
    }

    @Test func raisingThePriorityReordersQueuedAndRunningPrefetches() async throws {
        try await withHarness(maximumConcurrentDownloads: 1) { harness in
            let gate = TestGate()
            harness.server.route("/busy.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            for path in ["/normal.png", "/pf0.png", "/pf1.png"] { harness.server.route(path, response: .ok(try Fixture.png(seed: path.count))) }
            let manager = try harness.makeManager()
            let busy = manager.task(for: ImageRequest(url: harness.server.url("/busy.png")))
            await gate.waitForArrivals(1)
            // The prefetch's first load waits in the loader's queue at low priority, its second
            // in the prefetcher; a normal request waits in the loader too.
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 1)
            let token = prefetcher.prefetch([harness.server.url("/pf0.png"), harness.server.url("/pf1.png")])
            await harness.http.waitForQueued(1)
            let normal = manager.task(for: ImageRequest(url: harness.server.url("/normal.png")))
            await harness.http.waitForQueued(2)
            prefetcher.priority = .high
            #expect(prefetcher.priority == .high)
            gate.open()
            _ = try await busy.response
            _ = try await normal.response
            #expect(await token.completion.finished == 2)
            // pf0 was raised while queued, so it went before /normal; pf1 asked for its download
            // only after pf0 ended, when /normal had taken the free slot.
            #expect(harness.server.log.requests.map(\.path) == ["/busy.png", "/pf0.png", "/normal.png", "/pf1.png"])
        }
    }

    @Test func raisingThePriorityReachesARunningDiskOnlyPrefetch() async throws {
        try await withHarness(maximumConcurrentDownloads: 1) { harness in
            let gate = TestGate()
            harness.server.route("/busy.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            for path in ["/normal.png", "/disk.png"] { harness.server.route(path, response: .ok(try Fixture.png(seed: path.count))) }
            let manager = try harness.makeManager()
            let busy = manager.task(for: ImageRequest(url: harness.server.url("/busy.png")))
            await gate.waitForArrivals(1)
            let prefetcher = ImagePrefetcher(manager: manager, destination: .diskOnly)
            let token = prefetcher.prefetch([harness.server.url("/disk.png")])
            await harness.http.waitForQueued(1)
            let normal = manager.task(for: ImageRequest(url: harness.server.url("/normal.png")))
            await harness.http.waitForQueued(2)
            prefetcher.priority = .high
            gate.open()
            _ = try await busy.response
            _ = try await normal.response
            #expect(await token.completion.finished == 1)
            #expect(harness.server.log.requests.map(\.path) == ["/busy.png", "/disk.png", "/normal.png"])
        }
    }

    @Test func newLoadsStartAtTheChangedPriority() async throws {
        try await withHarness(maximumConcurrentDownloads: 1) { harness in
            let gate = TestGate()
            harness.server.route("/busy.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            for path in ["/normal.png", "/later.png"] { harness.server.route(path, response: .ok(try Fixture.png(seed: path.count))) }
            let manager = try harness.makeManager()
            let busy = manager.task(for: ImageRequest(url: harness.server.url("/busy.png")))
            await gate.waitForArrivals(1)
            let normal = manager.task(for: ImageRequest(url: harness.server.url("/normal.png")))
            await harness.http.waitForQueued(1)
            let prefetcher = ImagePrefetcher(manager: manager)
            prefetcher.priority = .high
            let token = prefetcher.prefetch([harness.server.url("/later.png")])
            await harness.http.waitForQueued(2)
            gate.open()
            _ = try await busy.response
            _ = try await normal.response
            #expect(await token.completion.finished == 1)
            #expect(harness.server.log.requests.map(\.path) == ["/busy.png", "/later.png", "/normal.png"])
        }
    }

    @Test func prefetchedRequestsAreFoundUnderTheKeyALaterLoadUses() async throws {
        try await withHarness { harness in
            harness.server.route("/t.png", response: .ok(try Fixture.png()))
            let steps = StepCounter()
            var request = ImageRequest(url: harness.server.url("/t.png"), options: [.waitStoreCache])
            request.decoding.thumbnailPixelSize = PixelSize(width: 32, height: 32)
            request.transformer = ChainedTransformer([steps.blur, steps.tailStep("flip")])
            let manager = try harness.makeManager()
            let prefetcher = ImagePrefetcher(manager: manager)
            let summary = await prefetcher.prefetch([request]).completion
            #expect(summary.finished == 1)
            #expect(steps["blur2"] == 1 && steps["flip"] == 1)

            let later = try await manager.image(for: request)
            #expect(later.cacheType == .memory)
            #expect(later.image.pixelSize == PixelSize(width: 32, height: 24))
            #expect(try await harness.makeManager().image(for: request).cacheType == .disk)
            #expect(steps["blur2"] == 1 && steps["flip"] == 1)
            #expect(harness.server.requestCount("/t.png") == 1)
        }
    }
}
