import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("HTTP loader: one download per URL, tokens", .timeLimit(.minutes(3)))
struct HTTPCoalescingTests {
    @Test func thousandConcurrentLoadsOfOneURLMakeExactlyOneRequest() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(10_000)
            let gate = TestGate()
            server.route("/one.png", response: parked(data, at: gate))
            let url = server.url("/one.png")
            let tasks = (0..<1_000).map { _ in loader.load(ImageLoad.Request(url: url)) }
            await gate.waitForArrivals(1)
            #expect(loader.runningDownloadCount == 1)
            gate.open()
            let matching = try await withThrowingTaskGroup(of: Bool.self) { group in
                for task in tasks { group.addTask { try await task.result().data == data } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(matching == 1_000)
            #expect(server.requestCount("/one.png") == 1)
        }
    }

    @Test func cancellingOneTokenLeavesTheOthersIntact() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(5_000)
            let gate = TestGate()
            server.route("/shared.png", response: parked(data, at: gate))
            let url = server.url("/shared.png")
            let tasks = (0..<3).map { _ in loader.load(ImageLoad.Request(url: url)) }
            await gate.waitForArrivals(1)
            tasks[1].cancel()
            #expect(await loadError(tasks[1])?.code == .cancelled)
            gate.open()
            let firstData = try await tasks[0].result().data
            #expect(firstData == data)
            let thirdData = try await tasks[2].result().data
            #expect(thirdData == data)
            #expect(server.requestCount("/shared.png") == 1)
            #expect(server.log.outcomes("/shared.png") == [.completed])
        }
    }

    @Test func theDownloadStopsWhenItsLastCallerCancels() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(20_000)
            let gate = TestGate()
            let steps = TestResponse.steps(data, chunkSize: 10_000)
            server.route(
                "/stop.png",
                response: TestResponse(
                    headers: [("Content-Type", "image/png")], body: [steps[0], .wait(gate), steps[1]],
                    length: .declared(data.count)))
            let url = server.url("/stop.png")
            let events = loader.events()
            let tasks = (0..<2).map { _ in loader.load(ImageLoad.Request(url: url)) }
            await gate.waitForArrivals(1)
            tasks[0].cancel()
            tasks[1].cancel()
            // The server sees the client close the connection while the response is parked.
            await server.waitUntil { $0.outcomes("/stop.png") == [.clientDisconnected] }
            for task in tasks { #expect(await loadError(task)?.code == .cancelled) }
            var stopped: WebImageError?
            for await event in events {
                if case .stopped(let stoppedURL, let error) = event, stoppedURL == url {
                    stopped = error
                    break
                }
            }
            #expect(stopped?.code == .cancelled)
            #expect(loader.runningDownloadCount == 0)
            // A new caller gets a new download.
            gate.open()
            let againData = try await loader.load(ImageLoad.Request(url: url)).result().data
            #expect(againData == data)
            #expect(server.requestCount("/stop.png") == 2)
        }
    }

    @Test func aLateJoinerGetsProgressFromThenOnAndTheWholeData() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(2_000)
            let gate = TestGate()
            let steps = TestResponse.steps(data, chunkSize: 1_000)
            server.route(
                "/late.png",
                response: TestResponse(
                    headers: [("Content-Type", "image/png")], body: [steps[0], .wait(gate), steps[1]],
                    length: .declared(2_000)))
            let url = server.url("/late.png")
            let first = loader.load(ImageLoad.Request(url: url))
            var iterator = first.events.makeAsyncIterator()
            while let event = try await iterator.next() {
                if case .progress(let progress) = event, progress.receivedBytes == 1_000 { break }
            }
            var request = ImageLoad.Request(url: url)
            request.reportsPartialData = true
            let late = loader.load(request)
            gate.open()
            let (events, result) = try await collectEvents(late)
            guard case .response(let response) = events.first else {
                Issue.record("the late joiner's first event is not the response: \(events.first.map { "\($0)" } ?? "none")")
                return
            }
            #expect(response.statusCode == 200)
            let progress = progressEvents(events)
            #expect(progress.first?.receivedBytes == 1_000)
            #expect(progress.first?.partialData == data.prefix(1_000))
            #expect(progress.last?.receivedBytes == 2_000)
            #expect(result?.data == data)
            var firstResult: ImageLoad.Result?
            while let event = try await iterator.next() {
                if case .finished(let finished) = event { firstResult = finished }
            }
            #expect(firstResult?.data == data)
            #expect(server.requestCount("/late.png") == 1)
        }
    }

    @Test func revalidatingAndPlainLoadsOfOneURLAreSeparateDownloads() async throws {
        try await withServerAndLoader { server, loader in
            let data = testBytes(3_000)
            server.routeConditional("/cond.png", data: data, etag: "\"e1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT")
            let url = server.url("/cond.png")
            var revalidating = ImageLoad.Request(url: url)
            revalidating.revalidation = HTTPCacheMetadata(etag: "\"e1\"")
            let conditional = loader.load(revalidating)
            let plain = loader.load(ImageLoad.Request(url: url))
            #expect(await loadError(conditional)?.code == .cacheNotModified)
            let plainData = try await plain.result().data
            #expect(plainData == data)
            #expect(server.requestCount("/cond.png") == 2)
        }
    }
}
