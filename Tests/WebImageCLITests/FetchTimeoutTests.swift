import Foundation
import Testing
import WebImageHTTPTesting

@Suite("webimage fetch --timeout: the total deadline of each download", .timeLimit(.minutes(3)))
struct FetchTimeoutTests {
    @Test func timeoutEndsADownloadThatKeepsDripping() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        // One byte every 100 ms for 20 s: never idle, so only a total deadline ends it early.
        let bytes = Data((0..<200).map { UInt8(truncatingIfNeeded: $0) })
        server.route("/drip.png", response: .trickle(bytes, bytesPerStep: 1, interval: .milliseconds(100)))
        try await withTemporaryDirectory { directory in
            let run = try await CLI.run(
                ["fetch", server.url("/drip.png").absoluteString, "--no-cache", "--timeout", "1", "--json"], in: directory)
            #expect(run.status == 1, "\(run.stderr)")
            let events = try run.jsonLines()
            let failed = try #require(events.first { $0["event"] as? String == "failed" }?["error"] as? [String: Any])
            #expect(failed["code"] as? String == "timedOut")
            #expect((failed["message"] as? String)?.contains("after 1 s (its total timeout") == true, "\(failed)")
        }
    }
}
