import Foundation
import NIOCore
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// Resumable downloads against a loopback server that serves ranges: the first answer is cut
/// mid-body, the next load asks for the rest with `Range` and `If-Range`.
@Suite("HTTP loader: resumable downloads", .timeLimit(.minutes(3)))
struct HTTPResumeTests {
    static let etag = "\"v1\""

    /// `data` from its start, cut after `cut` bytes (the connection closes).
    static func cut(_ data: Data, after cut: Int, headers: [(String, String)]) -> TestResponse {
        TestResponse(
            status: 200, headers: [("Content-Type", "image/png")] + headers,
            body: [.bytes(ByteBuffer(bytes: data.prefix(cut))), .close], length: .declared(data.count))
    }

    /// Serves `data`: cut after `cut` bytes the first time, then honours `Range` + `If-Range`
    /// when the validator matches `current`, else sends everything. Records each `Range` asked.
    static func route(
        _ server: LoopbackHTTPServer, _ path: String, data: Data, cut: Int, current: String = etag,
        ranges: LockedValues, contentRangeStart: (@Sendable (Int) -> Int)? = nil
    ) {
        let headers = [("ETag", etag), ("Accept-Ranges", "bytes")]
        server.route(path) { request in
            ranges.append(request.header("Range") ?? "-")
            if ranges.values.count == 1 { return Self.cut(data, after: cut, headers: headers) }
            guard let range = request.header("Range"), request.header("If-Range") == current,
                let start = Int(range.dropFirst("bytes=".count).dropLast())
            else { return .ok(data, headers: [("ETag", current), ("Accept-Ranges", "bytes")]) }
            let from = contentRangeStart?(start) ?? start
            return TestResponse(
                status: 206,
                headers: [("Content-Type", "image/png"), ("ETag", current),
                          ("Content-Range", "bytes \(from)-\(data.count - 1)/\(data.count)")],
                body: TestResponse.steps(data.suffix(from: from)))
        }
    }

    @Test func aCutDownloadResumesWhereItStoppedOnTheNextLoad() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(10_000)
            let ranges = LockedValues()
            Self.route(server, "/r.png", data: data, cut: 4_000, ranges: ranges)
            let url = server.url("/r.png")
            #expect(await loadError(loader.load(ImageLoad.Request(url: url)))?.code == .networkError)
            let (events, result) = try await collectEvents(loader.load(ImageLoad.Request(url: url)))
            #expect(result?.data == data)
            #expect(ranges.values == ["-", "bytes=4000-"])
            // Callers see one whole response, and progress that continues from the kept bytes.
            #expect(result?.response.statusCode == 200)
            #expect(result?.response.expectedContentLength == data.count)
            let progress = progressEvents(events)
            #expect(progress.allSatisfy { $0.receivedBytes > 4_000 && $0.expectedBytes == data.count })
            #expect(progress.last?.receivedBytes == data.count)
        }
    }

    @Test func aRetryResumesTooSoOnlyTheRestIsSentAgain() async throws {
        try await withServerAndLoader({
            $0.retryStrategy = .exponentialBackoff(maximumRetries: 1, baseDelay: .milliseconds(1))
            $0.retryClock = FastForwardClock()
        }) { server, loader in
            let data = testBytes(8_000, seed: 2)
            let ranges = LockedValues()
            Self.route(server, "/retry.png", data: data, cut: 3_000, ranges: ranges)
            let result = try await loader.load(ImageLoad.Request(url: server.url("/retry.png"))).result()
            #expect(result.data == data)
            #expect(ranges.values == ["-", "bytes=3000-"])
        }
    }

    @Test func aChangedImageStartsOver() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(6_000, seed: 3)
            let ranges = LockedValues()
            // By the second request the image changed: If-Range no longer matches, a 200 comes.
            Self.route(server, "/changed.png", data: data, cut: 2_000, current: "\"v2\"", ranges: ranges)
            let url = server.url("/changed.png")
            _ = await loadError(loader.load(ImageLoad.Request(url: url)))
            let result = try await loader.load(ImageLoad.Request(url: url)).result()
            #expect(result.data == data)
            #expect(ranges.values == ["-", "bytes=2000-"])
        }
    }

    @Test func aRangeOtherThanTheOneAskedForStartsOverWithoutARange() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(6_000, seed: 4)
            let ranges = LockedValues()
            Self.route(server, "/odd.png", data: data, cut: 2_000, ranges: ranges, contentRangeStart: { $0 - 1_000 })
            let url = server.url("/odd.png")
            _ = await loadError(loader.load(ImageLoad.Request(url: url)))
            let result = try await loader.load(ImageLoad.Request(url: url)).result()
            #expect(result.data == data)
            #expect(ranges.values == ["-", "bytes=2000-", "-"])
        }
    }

    @Test func withoutRangeSupportOrOverTheBudgetNothingIsKept() async throws {
        try await withServerAndLoader({ $0.resumableDataBudget = 1_000 }) { server, loader in
            let data = testBytes(5_000, seed: 5)
            let big = LockedValues()
            // 2,000 bytes kept would be over the 1,000-byte budget.
            Self.route(server, "/big.png", data: data, cut: 2_000, ranges: big)
            _ = await loadError(loader.load(ImageLoad.Request(url: server.url("/big.png"))))
            _ = try await loader.load(ImageLoad.Request(url: server.url("/big.png"))).result()
            #expect(big.values == ["-", "-"])
            // No Accept-Ranges and no validator: nothing to resume.
            let plain = LockedValues()
            server.route("/plain-log.png") { request in
                plain.append(request.header("Range") ?? "-")
                return plain.values.count == 1 ? Self.cut(data, after: 500, headers: []) : .ok(data)
            }
            _ = await loadError(loader.load(ImageLoad.Request(url: server.url("/plain-log.png"))))
            _ = try await loader.load(ImageLoad.Request(url: server.url("/plain-log.png"))).result()
            #expect(plain.values == ["-", "-"])
        }
    }
}
