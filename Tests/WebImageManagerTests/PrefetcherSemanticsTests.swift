import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

@Suite("ImagePrefetcher: disk-only, lifetime", .timeLimit(.minutes(3)))
struct PrefetcherSemanticsTests {
    @Test func aDiskOnlyPrefetchNeitherDecodesNorFillsMemory() async throws {
        try await withHarness { harness in
            let png = try Fixture.png()
            harness.server.route("/fresh.png", response: .ok(png))
            harness.server.route("/stored.png", response: .ok(png))
            harness.server.route("/page.png", response: .ok(Data("<html></html>".utf8), contentType: "text/html"))
            let stored = harness.server.url("/stored.png")
            _ = try await harness.makeManager().image(for: ImageRequest(url: stored, options: [.waitStoreCache]))
            let decodesBefore = harness.coders.decodeCount

            let manager = try harness.makeManager()
            let prefetcher = ImagePrefetcher(manager: manager, destination: .diskOnly)
            let fresh = harness.server.url("/fresh.png")
            let page = harness.server.url("/page.png")
            let token = prefetcher.prefetch([fresh, stored, page])
            var outcomes: [Int: ImagePrefetcher.Result.Outcome] = [:]
            for await result in token.results { outcomes[result.index] = result.outcome }
            let summary = await token.completion
            #expect(summary.finished == 2 && summary.failed == 1)
            if case .finished(let type) = outcomes[1] { #expect(type == .disk) } else { Issue.record("\(String(describing: outcomes[1]))") }
            if case .failed(let error) = outcomes[2] {
                #expect(WebImageError.Code.of(error) == .badImageData)
            } else {
                Issue.record("a web page was prefetched as an image")
            }
            #expect(harness.coders.decodeCount == decodesBefore)
            let cache = manager.configuration.imageCache
            #expect(cache.memoryImage(forKey: fresh.absoluteString) == nil)
            #expect(cache.memoryImage(forKey: stored.absoluteString) == nil)
            #expect(try await diskEntry(cache, fresh.absoluteString)?.data == png)
            #expect(try await diskEntry(cache, page.absoluteString) == nil)
            #expect(harness.server.requestCount("/stored.png") == 1)
        }
    }

    @Test func aReleasedPrefetcherCancelsItsDownloads() async throws {
        try await withHarness { harness in
            let gate = TestGate()
            for index in 0..<6 {
                harness.server.route("/r\(index).png", response: TestResponse(
                    status: 200, headers: [("Content-Type", "image/png")],
                    body: [.wait(gate)] + TestResponse.steps(try Fixture.png())))
            }
            let manager = try harness.makeManager()
            var prefetcher: ImagePrefetcher? = ImagePrefetcher(manager: manager, maximumConcurrentPrefetches: 2)
            let token = try #require(prefetcher).prefetch((0..<6).map { harness.server.url("/r\($0).png") })
            await gate.waitForArrivals(2)
            prefetcher = nil
            gate.open()
            let summary = await token.completion
            #expect(summary.cancelled)
            #expect(summary.finished + summary.failed <= 2)
            #expect(harness.server.log.requests.count == 2)
        }
    }
}
