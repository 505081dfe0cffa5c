import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

@Suite("Binding images to targets", .timeLimit(.minutes(5)))
@MainActor
struct BindingTests {
    @Test func aThousandRapidRebindsEndWithTheLastImageAndOneVisibleSet() async throws {
        try await withMainActorHarness { harness in
            BindingFixture.routeColours(harness.server)
            let manager = try harness.makeManager()
            let target = FakeTarget()
            let outcomes = Outcomes()
            let placeholder = BindingFixture.placeholder
            for n in 0..<1000 {
                manager.load(harness.server.url("/colour?n=\(n)"), into: target, placeholder: placeholder) {
                    outcomes.record($0)
                }
            }
            try await eventually { outcomes.results.count == 1000 }
            // Every earlier load was cancelled by the next one; only the last one's image was set.
            #expect(outcomes.errorCodes == Array(repeating: .cancelled, count: 999))
            #expect(outcomes.successes.count == 1)
            let loaded = target.images.filter { $0 !== placeholder }
            #expect(loaded.count == 1)
            #expect(loaded.first??.firstPixel == BindingFixture.colour(999))
            #expect(target.images.count == 1001)
            #expect(target.shown[.image]?.firstPixel == BindingFixture.colour(999))
            #expect(target.imageURL() == harness.server.url("/colour?n=999"))
            #expect(!target.imageBinder.isLoading())
            // Late results have nowhere to go: a moment later nothing more was set.
            try await Task.sleep(for: .milliseconds(100))
            #expect(target.images.count == 1001)
        }
    }

    @Test func thePlaceholderIsSetAtOnceAndTheImageWithTheTransitionWhenItArrives() async throws {
        try await withMainActorHarness { harness in
            let gate = TestGate()
            let png = try BindingFixture.png(BindingFixture.colour(1))
            harness.server.route("/slow.png", response: TestResponse(status: 200, headers: [("Content-Type", "image/png")], body: [.wait(gate)] + TestResponse.steps(png)))
            let manager = try harness.makeManager()
            let target = FakeTarget()
            let placeholder = BindingFixture.placeholder
            let task = manager.load(
                harness.server.url("/slow.png"), into: target, placeholder: placeholder, transition: .fade())
            // Synchronously, before any of the load ran.
            #expect(target.images.count == 1 && target.images[0] === placeholder)
            #expect(target.transitions == [nil])
            #expect(target.imageURL() == harness.server.url("/slow.png"))
            #expect(target.imageBinder.isLoading())
            await gate.waitForArrivals(1)
            #expect(target.images.count == 1)
            gate.open()
            _ = try await task?.response
            try await eventually { target.images.count == 2 }
            #expect(target.images[1]?.firstPixel == BindingFixture.colour(1))
            #expect(target.transitions == [nil, .fade()])
        }
    }

    @Test func delayPlaceholderShowsThePlaceholderOnlyOnFailure() async throws {
        try await withMainActorHarness { harness in
            harness.server.route("/ok.png", response: .ok(try BindingFixture.png(BindingFixture.colour(2))))
            harness.server.route("/missing.png", response: .status(404))
            let manager = try harness.makeManager()
            let placeholder = BindingFixture.placeholder
            let good = FakeTarget()
            let outcomes = Outcomes()
            manager.load(harness.server.url("/ok.png"), into: good, placeholder: placeholder, options: .delayPlaceholder) {
                outcomes.record($0)
            }
            #expect(good.images.isEmpty)
            try await eventually { outcomes.results.count == 1 }
            #expect(good.images.count == 1 && good.images[0]?.firstPixel == BindingFixture.colour(2))

            let bad = FakeTarget()
            manager.load(harness.server.url("/missing.png"), into: bad, placeholder: placeholder, options: .delayPlaceholder) {
                outcomes.record($0)
            }
            #expect(bad.images.isEmpty)
            try await eventually { outcomes.results.count == 2 }
            #expect(bad.images.count == 1 && bad.images[0] === placeholder)
            #expect(outcomes.errorCodes == [.invalidDownloadStatusCode])
            #expect(bad.imageURL() == harness.server.url("/missing.png"))

            // Without a URL the placeholder still comes, at once.
            let none = FakeTarget()
            manager.load(nil as URL?, into: none, placeholder: placeholder, options: .delayPlaceholder) { outcomes.record($0) }
            #expect(none.images.count == 1 && none.images[0] === placeholder)
            #expect(outcomes.errorCodes.last == .invalidURL)
            #expect(none.imageURL() == nil)
        }
    }

    @Test func avoidAutoSetImageHandsTheImageToTheCompletionOnly() async throws {
        try await withMainActorHarness { harness in
            harness.server.route("/a.png", response: .ok(try BindingFixture.png(BindingFixture.colour(3))))
            let manager = try harness.makeManager()
            let target = FakeTarget(indicator: true)
            let outcomes = Outcomes()
            let placeholder = BindingFixture.placeholder
            manager.load(harness.server.url("/a.png"), into: target, placeholder: placeholder, options: .avoidAutoSetImage) {
                outcomes.record($0)
            }
            try await eventually { outcomes.results.count == 1 }
            #expect(target.images.count == 1 && target.images[0] === placeholder)
            #expect(outcomes.successes.first?.image.firstPixel == BindingFixture.colour(3))
            #expect(target.events.last == .stop)
            // A memory hit is not set either.
            manager.load(harness.server.url("/a.png"), into: target, options: .avoidAutoSetImage) { outcomes.record($0) }
            #expect(outcomes.successes.count == 2 && outcomes.successes[1].cacheType == .memory)
            #expect(target.images.count == 1)
        }
    }

    @Test func transitionsOnlyForNetworkAndDiskUnlessForced() async throws {
        try await withMainActorHarness { harness in
            harness.server.route("/t.png", response: .ok(try BindingFixture.png(BindingFixture.colour(4))))
            let url = harness.server.url("/t.png")
            let manager = try harness.makeManager { $0.defaultOptions.insert(.waitStoreCache) }
            let outcomes = Outcomes()
            let network = FakeTarget()
            manager.load(url, into: network, transition: .fade()) { outcomes.record($0) }
            try await eventually { outcomes.results.count == 1 }
            #expect(outcomes.successes[0].cacheType == .none)
            #expect(network.transitions == [nil, .fade()])

            // Memory hit: set synchronously, no placeholder first, no transition.
            let memory = FakeTarget(indicator: true)
            let task = manager.load(url, into: memory, placeholder: BindingFixture.placeholder, transition: .fade()) {
                outcomes.record($0)
            }
            #expect(task == nil)
            #expect(outcomes.results.count == 2 && outcomes.successes[1].cacheType == .memory)
            #expect(memory.images.count == 1 && memory.images[0]?.firstPixel == BindingFixture.colour(4))
            #expect(memory.events == [.set(key: .image, transition: nil)])

            // Forced: the memory hit comes with the transition.
            let forced = FakeTarget()
            manager.load(url, into: forced, options: .forceTransition, transition: .curlUp()) { outcomes.record($0) }
            #expect(forced.transitions == [.curlUp()])

            // Disk: a new manager (empty memory) over the same disk.
            let second = try harness.makeManager()
            let disk = FakeTarget()
            manager.load(url, into: disk, transition: .fade())  // memory of the first manager: no transition
            second.load(url, into: disk, key: "second", transition: .flipFromLeft()) { outcomes.record($0) }
            try await eventually { outcomes.results.count == 4 }
            #expect(outcomes.successes[3].cacheType == .disk)
            #expect(disk.events.last == .set(key: "second", transition: .flipFromLeft()))
            #expect(harness.server.requestCount("/t.png") == 1)
        }
    }

    @Test func theIndicatorStartsFollowsProgressAndStops() async throws {
        try await withMainActorHarness { harness in
            let gate = TestGate()
            let png = try Fixture.png(width: 200, height: 200, seed: 9)
            let half = png.count / 2
            harness.server.route(
                "/p.png",
                response: TestResponse(
                    status: 200,
                    body: TestResponse.steps(png.prefix(half)) + [.wait(gate)] + TestResponse.steps(png.dropFirst(half))))
            let manager = try harness.makeManager()
            let target = FakeTarget(indicator: true)
            let outcomes = Outcomes()
            manager.load(harness.server.url("/p.png"), into: target, progress: { outcomes.record(progress: $0) }) {
                outcomes.record($0)
            }
            #expect(target.events == [.set(key: .image, transition: nil), .start])
            try await eventually { target.events.contains { if case .progress(let f) = $0 { f > 0 && f < 1 } else { false } } }
            #expect(!outcomes.progress.isEmpty)
            #expect(outcomes.results.isEmpty)
            gate.open()
            try await eventually { outcomes.results.count == 1 }
            let fractions = target.events.compactMap { if case .progress(let f) = $0 { f } else { nil } }
            #expect(fractions == fractions.sorted())
            #expect(fractions.last == 1)
            #expect(Array(target.events.suffix(3)) == [.progress(1), .stop, .set(key: .image, transition: nil)])

            // A failure stops it too, and so does a cancel.
            harness.server.route("/hang.png", response: .hanging)
            let hanging = FakeTarget(indicator: true)
            manager.load(harness.server.url("/hang.png"), into: hanging) { outcomes.record($0) }
            await harness.server.waitForRequests("/hang.png")
            hanging.cancelImageLoad()
            #expect(hanging.events == [.set(key: .image, transition: nil), .start, .stop])
            #expect(outcomes.errorCodes.last == .cancelled)
        }
    }

    @Test func customKeysBindSecondaryImagesIndependently() async throws {
        try await withMainActorHarness { harness in
            BindingFixture.routeColours(harness.server)
            let manager = try harness.makeManager()
            let target = FakeTarget()
            let outcomes = Outcomes()
            let main = harness.server.url("/colour?n=10")
            let highlighted = harness.server.url("/colour?n=11")
            manager.load(main, into: target) { outcomes.record($0) }
            manager.load(highlighted, into: target, key: .highlighted) { outcomes.record($0) }
            #expect(target.imageBinder.loadingKeys == [.image, .highlighted])
            try await eventually { outcomes.results.count == 2 }
            #expect(outcomes.successes.count == 2)
            #expect(target.shown[.image]?.firstPixel == BindingFixture.colour(10))
            #expect(target.shown[.highlighted]?.firstPixel == BindingFixture.colour(11))
            #expect(target.imageURL() == main)
            #expect(target.imageURL(for: .highlighted) == highlighted)
        }
    }

    @Test func theSameURLWhileLoadingJoinsTheRunningLoad() async throws {
        try await withMainActorHarness { harness in
            let gate = TestGate()
            harness.server.route(
                "/j.png",
                response: TestResponse(status: 200, headers: [("Content-Type", "image/png")], body: [.wait(gate)] + TestResponse.steps(try BindingFixture.png(.black))))
            let manager = try harness.makeManager()
            let target = FakeTarget()
            let outcomes = Outcomes()
            let url = harness.server.url("/j.png")
            let first = manager.load(url, into: target, placeholder: BindingFixture.placeholder) { outcomes.record($0) }
            let second = manager.load(url, into: target, placeholder: BindingFixture.placeholder) { outcomes.record($0) }
            #expect(first != nil && first === second)
            #expect(target.images.count == 1)
            await gate.waitForArrivals(1)
            gate.open()
            try await eventually { outcomes.results.count == 2 }
            #expect(outcomes.successes.count == 2)
            #expect(target.images.count == 2)
            #expect(harness.server.requestCount("/j.png") == 1)
        }
    }

    @Test func aLateResultOfACancelledLoadIsNeverSet() async throws {
        try await withMainActorHarness { harness in
            let gate = TestGate()
            harness.server.route(
                "/late.png",
                response: TestResponse(status: 200, headers: [("Content-Type", "image/png")], body: [.wait(gate)] + TestResponse.steps(try BindingFixture.png(.black))))
            harness.server.route("/next.png", response: .ok(try BindingFixture.png(.white)))
            let manager = try harness.makeManager()
            let rebound = FakeTarget()
            let other = FakeTarget()
            let outcomes = Outcomes()
            let late = harness.server.url("/late.png")
            // Another target keeps the download of /late.png going after `rebound` moves on.
            manager.load(late, into: other) { outcomes.record($0) }
            manager.load(late, into: rebound) { outcomes.record($0) }
            await gate.waitForArrivals(1)
            manager.load(harness.server.url("/next.png"), into: rebound) { outcomes.record($0) }
            try await eventually { outcomes.results.count == 2 }
            gate.open()
            try await eventually { outcomes.results.count == 3 }
            try await Task.sleep(for: .milliseconds(50))
            #expect(other.shown[.image]?.firstPixel == .black, "outcomes: \(outcomes.results)")
            #expect(rebound.shown[.image]?.firstPixel == .white)
            #expect(rebound.images.compactMap { $0?.firstPixel } == [.white])
        }
    }

    @Test func aTargetThatGoesAwayCancelsItsLoad() async throws {
        try await withMainActorHarness { harness in
            harness.server.route("/gone.png", response: .hanging)
            let manager = try harness.makeManager()
            let outcomes = Outcomes()
            var target: FakeTarget? = FakeTarget()
            let task = try #require(manager.load(harness.server.url("/gone.png"), into: target!) { outcomes.record($0) })
            await harness.server.waitForRequests("/gone.png")
            weak let weakTarget = target
            target = nil
            #expect(weakTarget == nil)
            try await eventually { outcomes.results.count == 1 }
            #expect(outcomes.errorCodes == [.cancelled])
            do {
                _ = try await task.response
                Issue.record("the task of a target that went away finished with an image")
            } catch {
                #expect(WebImageError.Code.of(error) == .cancelled)
            }
            try await eventually { manager.runningTaskCounts.finals == 0 }
        }
    }
}
