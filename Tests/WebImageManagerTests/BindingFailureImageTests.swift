import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

@Suite("Binding: the failure image", .timeLimit(.minutes(5)))
@MainActor
struct BindingFailureImageTests {
    static let broken = Image(pixels: PixelBuffer(width: 2, height: 2, alphaMode: .straight, fill: RGBA8(r: 255, g: 0, b: 0)))

    @Test func aFailedLoadShowsTheFailureImageWithTheTransitionAndTheCompletionGetsTheError() async throws {
        try await withMainActorHarness { harness in
            harness.server.route("/missing.png", response: .status(404))
            let manager = try harness.makeManager()
            let target = FakeTarget(indicator: true)
            let outcomes = Outcomes()
            let placeholder = BindingFixture.placeholder
            manager.load(
                harness.server.url("/missing.png"), into: target, placeholder: placeholder, failureImage: Self.broken,
                transition: .fade()
            ) { outcomes.record($0) }
            try await eventually { outcomes.results.count == 1 }
            #expect(outcomes.errorCodes == [.invalidDownloadStatusCode])
            #expect(target.images.count == 2)
            #expect(target.images[0] === placeholder && target.images[1] === Self.broken)
            #expect(target.shown[.image] === Self.broken)
            #expect(target.transitions == [nil, .fade()])
            // The indicator stops as the load ends, then the failure image comes.
            #expect(target.events.suffix(2) == [.stop, .set(key: .image, transition: .fade())])

            // With a delayed placeholder, the failure image takes its place.
            let delayed = FakeTarget()
            manager.load(
                harness.server.url("/missing.png?delayed"), into: delayed, placeholder: placeholder,
                failureImage: Self.broken, options: .delayPlaceholder
            ) { outcomes.record($0) }
            try await eventually { outcomes.results.count == 2 }
            #expect(delayed.images.count == 1 && delayed.images[0] === Self.broken)

            // Without a URL it is set at once, after the placeholder.
            let none = FakeTarget()
            manager.load(nil as URL?, into: none, placeholder: placeholder, failureImage: Self.broken) { outcomes.record($0) }
            #expect(none.images.count == 2 && none.images[1] === Self.broken)
            #expect(outcomes.errorCodes.last == .invalidURL)
        }
    }

    @Test func avoidAutoSetImageLeavesTheFailureImageToTheCompletion() async throws {
        try await withMainActorHarness { harness in
            harness.server.route("/missing.png", response: .status(404))
            let manager = try harness.makeManager()
            let target = FakeTarget()
            let outcomes = Outcomes()
            manager.load(
                harness.server.url("/missing.png"), into: target, placeholder: BindingFixture.placeholder,
                failureImage: Self.broken, options: .avoidAutoSetImage
            ) { outcomes.record($0) }
            try await eventually { outcomes.results.count == 1 }
            #expect(outcomes.errorCodes == [.invalidDownloadStatusCode])
            #expect(target.images.count == 1 && target.images[0] === BindingFixture.placeholder)
            #expect(!target.images.contains { $0 === Self.broken })
        }
    }

    @Test func aCancelledLoadNeverShowsTheFailureImage() async throws {
        try await withMainActorHarness { harness in
            let gate = TestGate()
            harness.server.route("/slow.png", response: TestResponse(status: 200, headers: [], body: [.wait(gate)]))
            let manager = try harness.makeManager()
            let target = FakeTarget()
            let outcomes = Outcomes()
            manager.load(
                harness.server.url("/slow.png"), into: target, placeholder: BindingFixture.placeholder,
                failureImage: Self.broken
            ) { outcomes.record($0) }
            await gate.waitForArrivals(1)
            target.cancelImageLoad()
            #expect(outcomes.errorCodes == [.cancelled])
            // Rebinding cancels too: the first load's end never shows the failure image.
            manager.load(
                harness.server.url("/slow.png"), into: target, placeholder: BindingFixture.placeholder,
                failureImage: Self.broken
            ) { outcomes.record($0) }
            manager.load(nil as URL?, into: target) { outcomes.record($0) }
            #expect(outcomes.errorCodes == [.cancelled, .cancelled, .invalidURL])
            gate.open()
            try await eventually { manager.runningTaskCounts.finals == 0 }
            try await Task.sleep(for: .milliseconds(50))
            #expect(!target.images.contains { $0 === Self.broken })
        }
    }
}
