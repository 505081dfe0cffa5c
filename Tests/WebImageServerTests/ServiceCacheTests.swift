import Foundation
import Testing
import WebImageKit

@testable import WebImageServer

@Suite("Service: cache keys and memory")
struct ServiceCacheTests {
    static let source = URL(string: "https://example.com/images/a.png?v=2")!

    /// The keys as the service built them before they moved to `CacheKeys` (kept byte for byte:
    /// memory, disk and Redis entries, and the ETags made from them, stay valid).
    @Test("result and source keys are pinned")
    func pinnedKeys() throws {
        let options = try ProcessingOptions(segments: ["rs:fill:300:200", "q:70"])
        let remote = ImageService.resultKey(source: .remote(Self.source), options: options, output: .format(.webp), quality: 80)
        #expect(remote == "result:https://example.com/images/a.png?v=2|rs:fill:300:200:0:0/g:center/q:70|webp|q80")
        // The expression the service used before, for every input here.
        #expect(remote == "result:\(Self.source.absoluteString)|\(options.canonicalKey)|\(OutputChoice.format(.webp).key)|q\(80)")

        let plain = ImageService.resultKey(
            source: .remote(URL(string: "https://example.com/b.jpg")!), options: ProcessingOptions(), output: .sourceFormat, quality: 82)
        #expect(plain == "result:https://example.com/b.jpg|rs:fit:0:0:0:0/g:center|source|q82")

        let file = URL(fileURLWithPath: "/srv/images/c.png")
        let local = ImageService.resultKey(source: .local(file), options: ProcessingOptions(), output: .format(.png), quality: 80)
        #expect(local == "result:file:///srv/images/c.png|rs:fit:0:0:0:0/g:center|png|q80")

        #expect(CacheKeys.serviceSource(Self.source) == "source:https://example.com/images/a.png?v=2")
        #expect(CacheKeys.serviceSource(Self.source) == "source:" + Self.source.absoluteString)
        #expect(ImageService.etag(validator: "\"abc\"", key: remote) == "\"025f71cbb4b484f0473db57bfa5a1db6\"")
    }

    @Test("the memory budget is split ¾ results, ¼ originals, each refusing over a quarter of its own")
    func memorySplit() async throws {
        try await ServiceHarness.with(configure: { $0.memoryCacheBytes = 4000 }) { harness in
            let results = harness.server.service.memory
            let originals = harness.server.service.fetcher.memory
            #expect(results.costLimit == 3000 && results.entryCostLimit == 750)
            #expect(originals.costLimit == 1000 && originals.entryCostLimit == 250)
        }
    }

    @Test("a served result is kept at its bytes plus 256, its original at its bytes")
    func servedEntriesCost() async throws {
        try await ServiceHarness.with { harness in
            harness.origin.route("/a.png", response: .ok(Fixtures.png, contentType: "image/png"))
            let answer = try await harness.image("rs:fit:30:20", "/a.png", ext: "webp")
            #expect(answer.status == 200)
            let results = harness.server.service.memory
            let originals = harness.server.service.fetcher.memory
            #expect(results.count == 1 && results.totalCost == answer.body.count + 256)
            #expect(originals.count == 1 && originals.totalCost == Fixtures.png.count)
            let again = try await harness.image("rs:fit:30:20", "/a.png", ext: "webp")
            #expect(again.body == answer.body && results.count == 1)
        }
    }
}
