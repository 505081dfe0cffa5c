import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// The post-cache modifier (Kingfisher's `imageModifier`): every path, never stored, per caller.
@Suite("ImageManager: image modifier", .timeLimit(.minutes(3)))
struct ImageModifierTests {
    static func scaling(to scale: Double) -> ImageModifier {
        ImageModifier { image in
            Image(pixels: image.pixels, scale: scale, orientation: image.orientation, format: image.format)
        }
    }

    @Test("applied to network, memory and disk answers, never stored; coalesced callers each get their own")
    func everyPathNeverStored() async throws {
        try await withHarness { harness in
            harness.server.route("/m.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let url = harness.server.url("/m.png")
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.imageModifier = Self.scaling(to: 3)

            let network = try await manager.image(for: request)
            #expect(network.cacheType == .none && network.image.scale == 3)
            let memory = try await manager.image(for: request)
            #expect(memory.cacheType == .memory && memory.image.scale == 3)
            #expect(manager.cachedImage(for: request)?.image.scale == 3)
            // What the caches hold is the unmodified image.
            let plain = try await manager.image(for: ImageRequest(url: url))
            #expect(plain.cacheType == .memory && plain.image.scale == 1)
            try await manager.configuration.imageCache.clear(cacheType: .memory)
            let disk = try await manager.image(for: request)
            #expect(disk.cacheType == .disk && disk.image.scale == 3)
            #expect(harness.server.requestCount("/m.png") == 1)

            // Two callers sharing one download: each gets its own modification.
            harness.server.route("/n.png", response: .ok(try Fixture.png(seed: 1)))
            var two = ImageRequest(url: harness.server.url("/n.png"))
            two.imageModifier = Self.scaling(to: 2)
            var five = two
            five.imageModifier = Self.scaling(to: 5)
            let (a, b) = (manager.task(for: two), manager.task(for: five))
            #expect(try await a.response.image.scale == 2)
            #expect(try await b.response.image.scale == 5)
            #expect(harness.server.requestCount("/n.png") == 1)
        }
    }
}

@Suite("ImageManager: closure transformer", .timeLimit(.minutes(3)))
struct ClosureTransformerTests {
    @Test("a closure transformer runs once, is cached under its key, and its error names it")
    func closureTransformer() async throws {
        try await withHarness { harness in
            harness.server.route("/t.png", response: .ok(try Fixture.png()))
            let manager = try harness.makeManager()
            let url = harness.server.url("/t.png")
            var request = ImageRequest(url: url, options: [.waitStoreCache])
            request.transformer = ClosureTransformer(key: "flip-h") { image in try FlipTransformer(horizontal: true).transform(image) }
            let first = try await manager.image(for: request)
            let expected = try FlipTransformer(horizontal: true).transform(try await manager.image(for: ImageRequest(url: url)).image)
            #expect(first.image.pixels == expected.pixels)
            #expect(manager.cacheKey(for: request)?.contains("flip-h") == true, "\(manager.cacheKey(for: request) ?? "")")
            #expect(try await manager.image(for: request).cacheType == .memory)

            struct Refused: Error {}
            var failing = ImageRequest(url: url)
            failing.transformer = ClosureTransformer(key: "refuses") { _ in throw Refused() }
            let error = await #expect(throws: WebImageError.self) { try await manager.image(for: failing) }
            #expect(error?.code == .transformFailed)
            #expect(error?.message.contains("refuses") == true)
        }
    }
}
