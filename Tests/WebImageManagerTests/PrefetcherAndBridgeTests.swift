import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@Suite("ImagePrefetcher, the completion bridge, events", .timeLimit(.minutes(3)))
struct PrefetcherAndBridgeTests {
    @Test func prefetchesAtMostThreeAtOnceAndCountsFailures() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            for index in 0..<5 {
                harness.server.route("/p\(index).png", response: TestResponse(
                    status: 200, headers: [("Content-Type", "image/png")],
                    body: [.wait(gate)] + TestResponse.steps(try Fixture.png(seed: index + 1))))
            }
            harness.server.route("/missing.png", response: .status(404))
            let manager = try harness.makeManager()
            let urls: [URL?] = (0..<5).map { harness.server.url("/p\($0).png") } + [harness.server.url("/missing.png"), nil]
            let prefetcher = ImagePrefetcher(manager: manager)
            defer { withExtendedLifetime(prefetcher) {} }
            let token = prefetcher.prefetch(urls)
            await gate.waitForArrivals(3)
            // The fourth URL starts only when one of the first three ends.
            #expect(harness.server.log.requests.count == 3)
            gate.open()
            let summary = await token.completion
            #expect(summary == ImagePrefetcher.Progress(finished: 5, failed: 1, skipped: 1, total: 7))
            var seen: [ImagePrefetcher.Progress] = []
            for await progress in token.progress { seen.append(progress) }
            #expect(seen.count == 7)
            #expect(seen.last == summary)
            var failures: [URL: String] = [:]
            var skipped: [Int] = []
            var finished = 0
            for await result in token.results {
                switch result.outcome {
                case .finished(let cacheType): #expect(cacheType == .none); finished += 1
                case .failed(let error): failures[result.url!] = String(describing: error)
                case .skipped: skipped.append(result.index)
                }
            }
            #expect(finished == 5)
            #expect(skipped == [6])
            #expect(failures.count == 1)
            #expect(failures[harness.server.url("/missing.png")]?.contains("404") == true)
            for index in 0..<5 {
                let key = harness.server.url("/p\(index).png").absoluteString
                #expect(manager.configuration.imageCache.memoryImage(forKey: key) != nil)
            }
        }
    }

    @Test func prefetchToDiskOnlyKeepsNothingInMemory() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.route("/disk.png", response: .ok(png))
            let manager = try harness.makeManager()
            let url = harness.server.url("/disk.png")
            let prefetcher = ImagePrefetcher(manager: manager, destination: .diskOnly, options: [.waitStoreCache])
            defer { withExtendedLifetime(prefetcher) {} }
            let summary = await prefetcher.prefetch([url]).completion
            #expect(summary.finished == 1)
            let cache = manager.configuration.imageCache
            #expect(cache.memoryImage(forKey: url.absoluteString) == nil)
            #expect(try await diskEntry(cache, url.absoluteString)?.data == png)
        }
    }

    @Test func aConcurrencyLimitOfIntMaxRunsAsManyLoadsAsThereAreURLs() async throws {
        try await withHarness { harness in
            harness.server.route("/m0.png", response: .ok(try Fixture.png(seed: 1)))
            harness.server.route("/m1.png", response: .ok(try Fixture.png(seed: 2)))
            let manager = try harness.makeManager()
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: .max)
            let token = prefetcher.prefetch([harness.server.url("/m0.png"), harness.server.url("/m1.png")])
            // (Before the clamp this never ended: the start loop counted to Int.max.)
            let summary = await token.completion
            #expect(summary == ImagePrefetcher.Progress(finished: 2, failed: 0, total: 2))
        }
    }

    @Test func cancelAllStopsThePrefetch() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            for index in 0..<6 {
                harness.server.route("/q\(index).png", response: TestResponse(
                    status: 200, headers: [("Content-Type", "image/png")],
                    body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            }
            let manager = try harness.makeManager()
            let prefetcher = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
            let token = prefetcher.prefetch((0..<6).map { harness.server.url("/q\($0).png") })
            await gate.waitForArrivals(2)
            prefetcher.cancelAll()
            let summary = await token.completion
            #expect(summary.cancelled)
            #expect(summary.finished == 0)
            #expect(summary.failed == 2)
            #expect(summary.cancelledCount == 4)
            #expect(summary.completed == summary.total)
            #expect(harness.server.log.requests.count == 2)
        }
    }

    @Test func completionHandlerBridge() async throws {
        try await withHarness { harness in
            harness.server.route("/cb.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageResponse, any Error>, Never>) in
                manager.load(ImageRequest(url: harness.server.url("/cb.png"))) { continuation.resume(returning: $0) }
            }
            #expect(try result.get().image.pixelSize == PixelSize(width: 64, height: 48))

            let gate = TestGate()
            harness.server.route("/cancel.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let cancelled = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageResponse, any Error>, Never>) in
                let operation = manager.load(ImageRequest(url: harness.server.url("/cancel.png"))) {
                    continuation.resume(returning: $0)
                }
                Task {
                    await gate.waitForArrivals(1)
                    operation.cancel()
                }
            }
            #expect(cancelled.failure.flatMap { WebImageError.Code.of($0) } == .cancelled)
        }
    }

    @Test func stagesAreReportedWithDurations() async throws {
        try await withHarness { harness in
            harness.server.route("/ev.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let events = manager.events()
            var request = ImageRequest(url: harness.server.url("/ev.png"), options: [.waitStoreCache])
            request.transformer = ResizeTransformer(size: PixelSize(width: 4, height: 4))
            _ = try await manager.image(for: request)
            var stages: [ImageManager.Event.Stage] = []
            for await event in events {
                #expect(event.duration >= .zero)
                stages.append(event.stage)
                if stages.filter({ $0 == .store }).count == 2 { break }
            }
            #expect(stages == [.cacheQuery, .cacheQuery, .download, .decode, .store, .transform, .store])
        }
    }

    @Test func progressAndProgressivePreviews() async throws {
        try await withHarness { harness in
            let png = try Fixture.png(width: 256, height: 256)
            harness.server.route("/prog.png", response: .chunked(png, chunkSize: png.count / 4 + 1))
            let manager = try harness.makeManager()
            let task = manager.task(for: ImageRequest(url: harness.server.url("/prog.png"), options: [.progressiveLoad]))
            var progress: [ImageLoad.Progress] = []
            for await value in task.progress { progress.append(value) }
            #expect(progress.last?.receivedBytes == png.count)
            #expect(progress.allSatisfy { $0.partialData == nil })
            _ = try await task.response
        }
    }
}

@Suite("ImageManager: progressive previews", .timeLimit(.minutes(3)))
struct ManagerPreviewTests {
    @Test func aPreviewArrivesWhileTheRestOfTheBodyIsParked() async throws {
        try await withHarness { harness in
            // The first part is a whole small PNG; the rest (after the gate) is trailing bytes
            // that decoders ignore, so the partial data decodes into a preview.
            let png = try Fixture.png(width: 20, height: 10)
            let gate = TestGate()
            harness.server.route("/pv.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: TestResponse.steps(png) + [.wait(gate)] + TestResponse.steps(Data(repeating: 0, count: 64))))
            let manager = try harness.makeManager()
            let task = manager.task(for: ImageRequest(url: harness.server.url("/pv.png"), options: [.progressiveLoad]))
            var previews = task.previews.makeAsyncIterator()
            let preview = await previews.next()
            #expect(preview?.pixelSize == PixelSize(width: 20, height: 10))
            // The gate is still closed: the preview came from the partial body.
            #expect(!gate.isOpen)
            gate.open()
            #expect(try await task.response.image.pixelSize == PixelSize(width: 20, height: 10))
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
