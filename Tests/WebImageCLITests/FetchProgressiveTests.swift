import Foundation
import Testing
import WebImageCodecs
import WebImageHTTPTesting
import WebImageTesting

@Suite("webimage fetch --progressive", .timeLimit(.minutes(3)))
struct FetchProgressiveTests {
    @Test func previewEventsCarryTheSizeAndTheBytesSoFar() async throws {
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.shutdown() } }
        let jpeg = try JPEGCoder().encode(
            Image(pixels: ProgressiveFixtures.texture(width: 160, height: 120)), as: .jpeg,
            options: ImageEncodingOptions(progressive: true))
        // The server ends the body after the first scan: one preview, then the decode fails.
        let firstScan = ProgressiveFixtures.jpegScanParts(jpeg)[0]
        server.route("/cut.jpg", response: .chunked(firstScan, chunkSize: 1 << 20, contentType: "image/jpeg"))
        server.route("/whole.jpg", response: .ok(jpeg, contentType: "image/jpeg"))
        try await withTemporaryDirectory { directory in
            let run = try await CLI.run(
                ["fetch", server.url("/cut.jpg").absoluteString, "--no-cache", "--json", "--progressive"], in: directory)
            #expect(run.status == 1)
            let events = try run.jsonLines()
            let previews = events.filter { $0["event"] as? String == "preview" }
            #expect(previews.count == 1)
            #expect(previews.first?["width"] as? Int == 160)
            #expect(previews.first?["height"] as? Int == 120)
            #expect(previews.first?["received"] as? Int == firstScan.count)
            let failed = try #require(events.first { $0["event"] as? String == "failed" })
            #expect((failed["error"] as? [String: Any])?["code"] as? String == "badImageData")
            // Previews come before the item's result.
            let order = events.compactMap { $0["event"] as? String }
            #expect(order.firstIndex(of: "preview")! < order.firstIndex(of: "failed")!)

            let plain = try await CLI.run(["fetch", server.url("/whole.jpg").absoluteString, "--no-cache", "--json"], in: directory)
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(try plain.jsonLines().allSatisfy { $0["event"] as? String != "preview" })
        }
    }
}
