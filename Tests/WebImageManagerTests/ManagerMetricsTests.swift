import Foundation
import MetricsTestKit
import Testing
import WebImageHTTPTesting
import WebImageKit

@Suite("ImageManager: metrics", .timeLimit(.minutes(3)))
struct ManagerMetricsTests {
    @Test func countersAndStageTimersGoThroughTheFactory() async throws {
        try await withHarness { harness in
            harness.server.route("/mx.png", response: .ok(try Fixture.png()))
            harness.server.route("/gone.png", response: .status(404))
            let metrics = TestMetrics()
            let manager = try harness.makeManager {
                $0.metricsFactory = metrics
                $0.metricsPrefix = "test"
            }
            let url = harness.server.url("/mx.png")
            _ = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            _ = try await manager.image(for: url)
            _ = await failureCode { try await manager.image(for: harness.server.url("/gone.png")) }
            _ = try await harness.makeManager { $0.metricsFactory = metrics; $0.metricsPrefix = "test" }.image(for: url)

            #expect(metrics.counterTotal(label: "test_memory_hits_total") == 1)
            #expect(metrics.counterTotal(label: "test_downloads_total") == 2)
            #expect(metrics.counterTotal(label: "test_failures_total") == 1)
            #expect(metrics.counterTotal(label: "test_disk_hits_total") == 1)
            let downloads = try metrics.expectTimer("test_stage_duration", [("stage", "download")])
            #expect(downloads.values.count == 2)
            let decodes = try metrics.expectTimer("test_stage_duration", [("stage", "decode")])
            #expect(decodes.values.count == 2)
        }
    }

    @Test func aMemoryHitThatAlsoReadsTheBytesCountsAsAMemoryHit() async throws {
        try await withHarness { harness in
            harness.server.route("/qd.png", response: .ok(try Fixture.png()))
            let metrics = TestMetrics()
            let manager = try harness.makeManager {
                $0.metricsFactory = metrics
                $0.metricsPrefix = "test"
            }
            let url = harness.server.url("/qd.png")
            _ = try await manager.image(for: ImageRequest(url: url, options: [.waitStoreCache]))
            let response = try await manager.image(for: ImageRequest(url: url, options: [.queryMemoryData]))
            #expect(response.cacheType == .memory)
            #expect(metrics.counterTotal(label: "test_memory_hits_total") == 1)
        }
    }
}
