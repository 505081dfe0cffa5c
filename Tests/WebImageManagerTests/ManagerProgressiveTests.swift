import Foundation
import Testing
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// Progressive loads over the loopback server, the body released part by part through gates: each
/// part completes one more step of the image (a scan, a pass, a frame), so every preview is
/// expected at a known point and no test depends on timing.
@Suite("ImageManager: progressive decoding", .timeLimit(.minutes(2)))
struct ManagerProgressiveTests {
    /// A response that sends `parts[0]`, then waits for `gates[0]` before `parts[1]`, and so on.
    static func gated(_ parts: [Data], contentType: String, length: TestResponse.Length = .automatic) -> (TestResponse, [TestGate]) {
        let gates = parts.dropFirst().map { _ in TestGate() }
        var body = TestResponse.steps(parts[0])
        for (gate, part) in zip(gates, parts.dropFirst()) { body += [.wait(gate)] + TestResponse.steps(part) }
        return (TestResponse(status: 200, headers: [("Content-Type", contentType)], body: body, length: length), gates)
    }

    static func progressiveJPEG(width: Int = 160, height: Int = 120) throws -> Data {
        try JPEGCoder().encode(
            Image(pixels: ProgressiveFixtures.texture(width: width, height: height)), as: .jpeg,
            options: ImageEncodingOptions(quality: 0.9, progressive: true))
    }

    /// A JPEG cut where the incremental decoder completes each scan.
    static func scanParts(_ jpeg: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> [Data] {
        try ProgressiveFixtures.previewParts(jpeg, decoder: JPEGCoder().makeIncrementalDecoder(options: options))
    }

    /// Receives one preview per part, opening the next part's gate after each; returns them.
    static func previews(of task: ImageTask, gates: [TestGate], count: Int) async throws -> [ImageTask.Preview] {
        var iterator = task.previewUpdates.makeAsyncIterator()
        var previews: [ImageTask.Preview] = []
        for index in 0..<count {
            let preview = try #require(await iterator.next(), "preview \(index + 1) of \(count)")
            previews.append(preview)
            if index < gates.count {
                #expect(!gates[index].isOpen, "preview \(index + 1) came before the next part was sent")
                gates[index].open()
            }
        }
        return previews
    }

    @Test func aProgressiveJPEGYieldsOnePreviewPerScanThenTheFinalImage() async throws {
        try await withHarness { harness in
            let jpeg = try Self.progressiveJPEG()
            let parts = try Self.scanParts(jpeg)
            #expect(parts.count == ProgressiveFixtures.jpegScanStarts(jpeg).count)
            #expect(parts.count >= 6)
            let (response, gates) = Self.gated(parts, contentType: "image/jpeg")
            harness.server.route("/scans.jpg", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            let url = harness.server.url("/scans.jpg")
            let task = manager.task(for: ImageRequest(url: url, options: [.progressiveLoad]))
            let previews = try await Self.previews(of: task, gates: gates, count: parts.count)
            // Never stored: the memory cache holds nothing while previews arrive.
            #expect(manager.configuration.imageCache.memoryImage(forKey: url.absoluteString) == nil)
            var received = 0
            for (preview, part) in zip(previews, parts) {
                // Decoded from this part's bytes: after the previous part, at most up to its end.
                #expect(preview.receivedBytes > received && preview.receivedBytes <= received + part.count)
                received += part.count
                #expect(preview.image.pixelSize == PixelSize(width: 160, height: 120))
            }
            let final = try await task.response
            #expect(final.image.pixels == (try JPEGCoder().decode(jpeg)).pixels)
            #expect(previews.last?.image.pixels == final.image.pixels)
            // The previews ended with the task: nothing after the final image.
            var rest = task.previewUpdates.makeAsyncIterator()
            #expect(await rest.next() == nil)
        }
    }

    @Test func thumbnailRequestsGetThumbnailPreviews() async throws {
        try await withHarness { harness in
            let jpeg = try Self.progressiveJPEG(width: 320, height: 240)
            var options = ImageDecodingOptions()
            options.thumbnailPixelSize = PixelSize(width: 80, height: 80)
            let parts = try Self.scanParts(jpeg, options: options)
            let (response, gates) = Self.gated(parts, contentType: "image/jpeg")
            harness.server.route("/thumb.jpg", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            var request = ImageRequest(url: harness.server.url("/thumb.jpg"), options: [.progressiveLoad])
            request.decoding.thumbnailPixelSize = PixelSize(width: 80, height: 80)
            let task = manager.task(for: request)
            let previews = try await Self.previews(of: task, gates: gates, count: parts.count)
            #expect(previews.allSatisfy { $0.image.pixelSize == PixelSize(width: 80, height: 60) })
            #expect(try await task.response.image.pixelSize == PixelSize(width: 80, height: 60))
        }
    }

    @Test func aTruncatedProgressiveJPEGShowsItsCompletedScansThenFails() async throws {
        try await withHarness { harness in
            let parts = Array(try Self.scanParts(try Self.progressiveJPEG()).prefix(3))
            // Chunked: the body ends cleanly after three scans, as a file cut on the server would.
            let (response, gates) = Self.gated(parts, contentType: "image/jpeg", length: .chunked)
            harness.server.route("/cut.jpg", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            let task = manager.task(for: ImageRequest(url: harness.server.url("/cut.jpg"), options: [.progressiveLoad]))
            let previews = try await Self.previews(of: task, gates: gates, count: 3)
            #expect(previews.count == 3)
            let error = await #expect(throws: WebImageError.self) { try await task.response }
            #expect(error?.code == .badImageData)
        }
    }

    @Test func aTrickledGIFYieldsOnePreviewPerCompletedFrame() async throws {
        try await withHarness { harness in
            let gif = try GIFCoder().encode(ImageFixtures.animation(frames: 4), as: .gif, options: ImageEncodingOptions())
            let parts = try ProgressiveFixtures.previewParts(gif, decoder: GIFCoder().makeIncrementalDecoder(options: ImageDecodingOptions()))
            // The first frame's rows while it arrives, then one part per frame.
            #expect(parts.count > 4)
            let (response, gates) = Self.gated(parts, contentType: "image/gif")
            harness.server.route("/frames.gif", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            let task = manager.task(for: ImageRequest(url: harness.server.url("/frames.gif"), options: [.progressiveLoad]))
            let previews = try await Self.previews(of: task, gates: gates, count: parts.count)
            for (index, preview) in previews.suffix(4).enumerated() {
                #expect(preview.image.pixels == ImageFixtures.movingSquare(index: index), "frame \(index)")
            }
            #expect(try await task.response.image.animation?.frameCount == 4)
        }
    }

    @Test func anInterlacedPNGYieldsOnePreviewPerPass() async throws {
        try await withHarness { harness in
            let png = try PNGCoder().encode(
                Image(pixels: ProgressiveFixtures.texture(width: 48, height: 40)), as: .png,
                options: ImageEncodingOptions(progressive: true))
            let parts = try ProgressiveFixtures.previewParts(png, decoder: PNGCoder().makeIncrementalDecoder(options: ImageDecodingOptions()))
            #expect(parts.count == 7)
            let (response, gates) = Self.gated(parts, contentType: "image/png")
            harness.server.route("/adam7.png", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            let task = manager.task(for: ImageRequest(url: harness.server.url("/adam7.png"), options: [.progressiveLoad]))
            let previews = try await Self.previews(of: task, gates: gates, count: 7)
            let final = try await task.response.image
            #expect(previews.last?.image.pixels == final.pixels)
            #expect(previews.first?.image.pixels != final.pixels)
        }
    }

    @Test func aPartialWebPYieldsItsRowsSoFar() async throws {
        try await withHarness { harness in
            let webp = try WebPCoder().encode(
                Image(pixels: ProgressiveFixtures.texture(width: 64, height: 96)), as: .webp,
                options: ImageEncodingOptions(quality: 0.8))
            let parts = try ProgressiveFixtures.previewParts(webp, decoder: WebPCoder().makeIncrementalDecoder(options: ImageDecodingOptions()))
            #expect(parts.count >= 3)
            let (response, gates) = Self.gated(parts, contentType: "image/webp")
            harness.server.route("/rows.webp", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            let task = manager.task(for: ImageRequest(url: harness.server.url("/rows.webp"), options: [.progressiveLoad]))
            let previews = try await Self.previews(of: task, gates: gates, count: parts.count)
            #expect(previews.first?.image.pixels[0, 95] == .clear)
            #expect(previews.last?.image.pixels == (try await task.response.image.pixels))
        }
    }

    @Test func previewsComeAtMostOncePerIntervalOnTheInjectedClock() async throws {
        try await withHarness { harness in
            let parts = try Self.scanParts(try Self.progressiveJPEG())
            let (response, gates) = Self.gated(parts, contentType: "image/jpeg")
            harness.server.route("/slow.jpg", response: response)
            let clock = ManualClock()
            let manager = try harness.makeManager {
                $0.progressiveInterval = .milliseconds(100)
                $0.progressiveClock = clock
            }
            let task = manager.task(for: ImageRequest(url: harness.server.url("/slow.jpg"), options: [.progressiveLoad]))
            var previews = task.previewUpdates.makeAsyncIterator()
            var progress = task.progress.makeAsyncIterator()
            // The first scan: a preview at once.
            #expect(await previews.next()?.receivedBytes == parts[0].count)
            // Scan 2 arrives with the clock standing still: decoded, not shown.
            gates[0].open()
            let twoScans = parts[0].count + parts[1].count
            while let value = await progress.next(), value.receivedBytes < twoScans {}
            // 100 ms later the next bytes arrive: a preview is due again, decoded from more than
            // the two scans (never a preview from the bytes that came while it was not due).
            clock.advance(by: .milliseconds(100))
            gates[1].open()
            let next = try #require(await previews.next())
            #expect(next.receivedBytes > twoScans && next.receivedBytes <= twoScans + parts[2].count)
            for gate in gates.dropFirst(2) { gate.open() }
            _ = try await task.response
        }
    }

    @Test func tasksSharingADownloadShareItsPreviews() async throws {
        try await withHarness { harness in
            let parts = try Self.scanParts(try Self.progressiveJPEG())
            let (response, gates) = Self.gated(parts, contentType: "image/jpeg")
            harness.server.route("/shared.jpg", response: response)
            let manager = try harness.makeManager { $0.progressiveInterval = .zero }
            let request = ImageRequest(url: harness.server.url("/shared.jpg"), options: [.progressiveLoad])
            let first = manager.task(for: request)
            let second = manager.task(for: request)
            var a = first.previewUpdates.makeAsyncIterator()
            var b = second.previewUpdates.makeAsyncIterator()
            for (index, gate) in gates.enumerated() {
                let left = await a.next(), right = await b.next()
                #expect(left?.receivedBytes == right?.receivedBytes, "preview \(index + 1)")
                gate.open()
            }
            _ = try await (first.response, second.response)
            #expect(harness.server.requestCount("/shared.jpg") == 1)
        }
    }
}
