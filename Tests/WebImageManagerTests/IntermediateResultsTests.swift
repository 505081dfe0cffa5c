import Foundation
import Synchronization
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// Counts how many times each named step of a chain ran.
final class StepCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    subscript(key: String) -> Int { counts.withLock { $0[key, default: 0] } }

    /// A real transformer wrapped to count its runs under its own key.
    func counting(_ key: String, _ transformer: any ImageTransforming) -> ClosureTransformer {
        ClosureTransformer(key: key) { [self] image in
            counts.withLock { $0[key, default: 0] += 1 }
            return try transformer.transform(image)
        }
    }

    /// The chain resize(32×24) → blur → `tail` (a flip or a tint), each counted.
    func chain(tail: String) -> ChainedTransformer {
        ChainedTransformer([resize, blur, tailStep(tail)])
    }

    var resize: ClosureTransformer {
        counting("resize32", ResizeTransformer(size: PixelSize(width: 32, height: 24), mode: .fill))
    }
    var blur: ClosureTransformer { counting("blur2", GaussianBlurTransformer(sigma: 2)) }

    func tailStep(_ name: String) -> ClosureTransformer {
        name == "flip" ? counting("flip", FlipTransformer(horizontal: true, vertical: false))
            : counting(name, TintTransformer(color: RGBA8(r: 200, g: 0, b: 0, a: 255)))
    }
}

@Suite("ImageManager: intermediate results and the coalescing switch", .timeLimit(.minutes(3)))
struct IntermediateResultsTests {
    @Test func twoChainsSharingAPrefixComputeItOnce() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/p.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let manager = try harness.makeManager()
            let steps = StepCounter()
            var flipped = ImageRequest(url: harness.server.url("/p.png"))
            flipped.transformer = steps.chain(tail: "flip")
            var tinted = flipped
            tinted.transformer = steps.chain(tail: "tint")
            let stream = manager.events()
            let tasks = [manager.task(for: flipped), manager.task(for: tinted)]
            await gate.waitForArrivals(1)
            // Both final stages have missed their own key and gone on to the shared prefix (the
            // download is held until then, so the prefix cannot end before the second joins).
            let finalKeys = Set([flipped, tinted].compactMap { manager.cacheKey(for: $0) })
            var missed = Set<String>()
            for await event in stream where event.stage == .cacheQuery && finalKeys.contains(event.key) {
                missed.insert(event.key)
                if missed == finalKeys { break }
            }
            gate.open()
            for task in tasks {
                #expect(try await task.response.image.pixelSize == PixelSize(width: 32, height: 24))
            }
            #expect(steps["resize32"] == 1)
            #expect(steps["blur2"] == 1)
            #expect(steps["flip"] == 1 && steps["tint"] == 1)
            #expect(harness.server.requestCount("/p.png") == 1)
            #expect(harness.coders.decodeCount == 1)
        }
    }

    @Test func aCachedPrefixIsPickedUpFromMemoryThenFromDisk() async throws {
        try await withHarness { harness in
            harness.server.route("/m.png", response: .ok(try Fixture.png()))
            let url = harness.server.url("/m.png")
            let steps = StepCounter()
            let manager = try harness.makeManager()
            var prefix = ImageRequest(url: url, options: [.waitStoreCache])
            prefix.transformer = ChainedTransformer([steps.resize, steps.blur])
            let prefixed = try await manager.image(for: prefix)
            #expect(steps["resize32"] == 1 && steps["blur2"] == 1)

            // From memory: the prefix is what the first request asked for.
            var flipped = prefix
            flipped.transformer = steps.chain(tail: "flip")
            let fromMemory = try await manager.image(for: flipped)
            #expect(fromMemory.cacheType == .memory)
            #expect(steps["resize32"] == 1 && steps["blur2"] == 1 && steps["flip"] == 1)
            #expect(try fromMemory.image.pixels == FlipTransformer(horizontal: true).transform(prefixed.image).pixels)

            // From disk: a new memory tier over the same disk.
            var tinted = prefix
            tinted.transformer = steps.chain(tail: "tint")
            let fromDisk = try await harness.makeManager().image(for: tinted)
            #expect(fromDisk.cacheType == .disk)
            #expect(steps["resize32"] == 1 && steps["blur2"] == 1 && steps["tint"] == 1)
            #expect(harness.server.requestCount("/m.png") == 1)
        }
    }

    @Test func prefixesGoToDiskButNotToMemory() async throws {
        try await withHarness { harness in
            harness.server.route("/d.png", response: .ok(try Fixture.png()))
            let url = harness.server.url("/d.png")
            let steps = StepCounter()
            let manager = try harness.makeManager()
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.transformer = steps.chain(tail: "flip")
            _ = try await manager.image(for: request)
            var prefix = request
            prefix.transformer = ChainedTransformer([steps.resize, steps.blur])
            var first = request
            first.transformer = steps.resize
            let cache = manager.configuration.imageCache
            for step in [prefix, first] {
                let key = try #require(manager.cacheKey(for: step))
                #expect(cache.memoryImage(forKey: key) == nil)
                #expect(try await diskEntry(cache, key) != nil)
            }
            #expect(cache.memoryImage(forKey: try #require(manager.cacheKey(for: request))) != nil)

            // A prefix stored by an earlier chain answers a later one from disk, in a fresh manager.
            var tinted = request
            tinted.transformer = steps.chain(tail: "tint")
            #expect(try await harness.makeManager().image(for: tinted).cacheType == .disk)
            #expect(steps["resize32"] == 1 && steps["blur2"] == 1)
        }
    }

    @Test func aNestedChainSharesItsPrefixWithAFlatOne() async throws {
        try await withHarness { harness in
            harness.server.route("/n.png", response: .ok(try Fixture.png()))
            let steps = StepCounter()
            var flat = ImageRequest(url: harness.server.url("/n.png"), options: [.waitStoreCache])
            flat.transformer = steps.chain(tail: "flip")
            var nested = flat
            nested.transformer = ChainedTransformer([ChainedTransformer([steps.resize, steps.blur]), steps.tailStep("tint")])
            let manager = try harness.makeManager()
            _ = try await manager.image(for: flat)
            let response = try await manager.image(for: nested)
            #expect(response.cacheType == .disk)
            #expect(steps["resize32"] == 1 && steps["blur2"] == 1 && steps["tint"] == 1)
            #expect(harness.server.requestCount("/n.png") == 1)
        }
    }

    @Test func withCoalescingOffEveryRequestDoesItsOwnWork() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            harness.server.route("/o.png", response: TestResponse(
                status: 200, headers: [("Content-Type", "image/png")],
                body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            let loads = LoadCounter(ImageLoadersManager.standard(http: harness.http))
            let coalescing = try harness.makeManager { $0.loader = loads }
            let solo = try harness.makeManager {
                $0.loader = loads
                $0.isCoalescingEnabled = false
            }
            let steps = StepCounter()
            var request = ImageRequest(url: harness.server.url("/o.png"), options: [.fromLoaderOnly])
            request.transformer = steps.chain(tail: "flip")

            let shared = [coalescing.task(for: request), coalescing.task(for: request)]
            await gate.waitForArrivals(1)
            // The chain's final job, then one per prefix ([resize, blur] and [resize]), one fetch.
            #expect(coalescing.runningTaskCounts.finals == 3)
            #expect(coalescing.runningTaskCounts.fetches == 1)
            #expect(loads.count == 1)
            let separate = [solo.task(for: request), solo.task(for: request)]
            await loads.waitForLoads(3)
            #expect(solo.runningTaskCounts.finals == 6)
            #expect(solo.runningTaskCounts.fetches == 2)
            gate.open()
            for task in shared + separate { _ = try await task.response }
            #expect(loads.count == 3)
            #expect(harness.coders.decodeCount == 3)
            #expect(steps["resize32"] == 3 && steps["blur2"] == 3 && steps["flip"] == 3)
        }
    }
}

/// A loader that counts the loads it is asked for and passes them on.
final class LoadCounter: ImageLoading {
    let base: any ImageLoading
    private let loads = Mutex(0)

    init(_ base: any ImageLoading) { self.base = base }

    var name: String { "counting" }

    var count: Int { loads.withLock { $0 } }

    func canLoad(_ url: URL) -> Bool { base.canLoad(url) }

    func load(_ request: ImageLoad.Request) -> ImageLoad.Task {
        loads.withLock { $0 += 1 }
        return base.load(request)
    }

    /// Waits until `count` loads were asked for (polling: loaders report no such event).
    func waitForLoads(_ count: Int) async {
        while self.count < count { try? await Task.sleep(for: .milliseconds(1)) }
    }
}
