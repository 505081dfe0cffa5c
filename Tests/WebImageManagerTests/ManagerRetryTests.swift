import Foundation
import MetricsTestKit
import Testing
import WebImageHTTPTesting
import WebImageKit

/// Retries seen from the manager: one retry sequence per download however many requests wait,
/// a `retry` event and the retries counter, per-request strategies, and a 404 never retried.
@Suite("ImageManager: retries", .timeLimit(.minutes(3)))
struct ManagerRetryTests {
    /// A loader that retries twice with waits of at most 10 ms, slept a thousandth of.
    static func retrying(_ configuration: inout HTTPImageLoaderConfiguration) {
        configuration.retryStrategy = .exponentialBackoff(maximumRetries: 2, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(10))
        configuration.retryClock = FastForwardClock()
    }

    @Test func requestsWaitingOnOneDownloadShareOneRetrySequence() async throws {
        try await withHarness(configure: Self.retrying) { harness in
            let gate = TestGate()
            harness.server.routeSequence(
                "/flaky.png", [TestResponse(status: 503, beforeHead: [.wait(gate)]), .ok(try Fixture.png())])
            let metrics = TestMetrics()
            let manager = try harness.makeManager {
                $0.metricsFactory = metrics
                $0.metricsPrefix = "retry"
            }
            let events = manager.events()
            let url = harness.server.url("/flaky.png")
            var thumbnail = ImageRequest(url: url)
            thumbnail.decoding.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            // Three requests for the full image share a fetch stage; the thumbnail has its own,
            // and both stages share the loader's one download.
            let tasks = [ImageRequest(url: url), ImageRequest(url: url), ImageRequest(url: url), thumbnail]
                .map { manager.task(for: $0) }
            // Both stages wait on the download before its first answer is let go.
            await gate.waitForArrivals(1)
            while harness.http.callerCount(for: url) < 2 { try await Task.sleep(for: .milliseconds(5)) }
            gate.open()
            for task in tasks { _ = try await task.response }
            #expect(harness.server.requestCount("/flaky.png") == 2)
            var retries: [ImageManager.Event] = []
            for await event in events where event.stage == .retry {
                retries.append(event)
                if retries.count == 2 { break }
            }
            // One retry event per stage that waited on the download.
            #expect(retries.allSatisfy { $0.attempt == 1 && ($0.error as? WebImageError)?.statusCode == 503 })
            #expect(retries.allSatisfy { $0.url == url && !$0.succeeded && $0.duration <= .milliseconds(10) })
            #expect(metrics.counterTotal(label: "retry_retries_total") == 2)
        }
    }

    @Test func aRequestsStrategyReachesTheLoader() async throws {
        try await withHarness(configure: { $0.retryClock = FastForwardClock() }) { harness in
            harness.server.routeSequence("/own.png", [.status(500), .ok(try Fixture.png())])
            let manager = try harness.makeManager()
            var request = ImageRequest(url: harness.server.url("/own.png"))
            request.loading.retryStrategy = .exponentialBackoff(maximumRetries: 1, baseDelay: .milliseconds(1))
            let response = try await manager.image(for: request)
            #expect(response.image.pixelSize == PixelSize(width: 64, height: 48))
            #expect(harness.server.requestCount("/own.png") == 2)
            // The strategy changes how the image is fetched, not which image it is.
            #expect(manager.cacheKey(for: request) == manager.cacheKey(for: ImageRequest(url: harness.server.url("/own.png"))))
        }
    }

    @Test func a404IsNotRetriedAndIsStillBlocked() async throws {
        try await withHarness(configure: Self.retrying) { harness in
            harness.server.route("/gone.png", response: .status(404))
            let manager = try harness.makeManager()
            let url = harness.server.url("/gone.png")
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            #expect(await failureCode { try await manager.image(for: url) } == .blockedURL)
            #expect(harness.server.requestCount("/gone.png") == 1)
        }
    }

    @Test func aRetriedFailureThatNeverRecoversIsNotBlocked() async throws {
        try await withHarness(configure: Self.retrying) { harness in
            harness.server.route("/down.png", response: .status(503))
            let manager = try harness.makeManager()
            let url = harness.server.url("/down.png")
            #expect(await failureCode { try await manager.image(for: url) } == .invalidDownloadStatusCode)
            #expect(harness.server.requestCount("/down.png") == 3)
            #expect(!manager.failedURLs.isBlocked(url))
        }
    }
}
