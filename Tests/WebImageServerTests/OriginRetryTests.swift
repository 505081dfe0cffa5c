import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit

@testable import WebImageServer

@Suite("serve: an origin fetch is retried once by default", .timeLimit(.minutes(3)))
struct OriginRetryTests {
    @Test func aTransientOriginFailureIsRetriedOnceByDefault() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.routeSequence("/flaky.png", [.status(503), .ok(Fixtures.png)])
            harness.origin.route("/down.png", response: .status(502))
            harness.origin.route("/gone.png", response: .status(404))
            let flaky = try await harness.image("w:10", "/flaky.png")
            #expect(flaky.status == 200, "\(flaky.text)")
            #expect(harness.origin.requestCount("/flaky.png") == 2)
            // Once, not more: a second failure is the answer.
            #expect(try await harness.image("w:10", "/down.png").status == 502)
            #expect(harness.origin.requestCount("/down.png") == 2)
            #expect(try await harness.image("w:10", "/gone.png").status == 404)
            #expect(harness.origin.requestCount("/gone.png") == 1)
        }
    }

    @Test func zeroRetriesAsksTheOriginOnce() async throws {
        try await ServiceHarness.with(configure: { $0.originRetries = 0 }) { (harness) async throws in
            harness.origin.routeSequence("/flaky.png", [.status(503), .ok(Fixtures.png)])
            #expect(try await harness.image("w:10", "/flaky.png").status == 502)
            #expect(harness.origin.requestCount("/flaky.png") == 1)
        }
    }
}
