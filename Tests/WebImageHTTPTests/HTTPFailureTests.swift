import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

@Suite("HTTP loader: timeouts, size limits, broken transfers, blocking", .timeLimit(.minutes(3)))
struct HTTPFailureTests {
    @Test func defaultLimits() {
        let configuration = HTTPImageLoaderConfiguration()
        #expect(configuration.timeout == .seconds(15))
        #expect(configuration.readTimeout == .seconds(15))
        #expect(configuration.maximumResponseBytes == 100 * 1024 * 1024)
        #expect(configuration.maximumRedirects == 10)
        #expect(configuration.acceptableStatusCodes == Set(200..<300))
        #expect(configuration.acceptableContentTypes == nil)
        #expect(!configuration.acceptsInvalidCertificates)
        #expect(configuration.minimumProgressInterval == 0)
    }

    // The server never answers, so these pass whatever the timeout's length; it is short only to
    // finish fast.
    @Test func aServerThatNeverAnswersTimesOutAndIsNotBlocked() async throws {
        try await withServerAndLoader({
            $0.timeout = .milliseconds(300)
            $0.readTimeout = .milliseconds(300)
        }) { server, loader in
            server.route("/hang", response: .hanging)
            let url = server.url("/hang")
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(error.code == .timedOut)
            #expect(!loader.shouldBlockFailedURL(url, error: error))
        }
    }

    @Test func aBodyThatStallsHitsTheIdleReadTimeout() async throws {
        try await withServerAndLoader({ $0.readTimeout = .milliseconds(300) }) { server, loader in
            server.route("/stall", response: .hangingAfterHead())
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/stall"))))
            #expect(error?.code == .timedOut)
        }
    }

    @Test func aPerRequestTimeoutOverridesTheLoaders() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/hang", response: .hanging)
            var request = ImageLoad.Request(url: server.url("/hang"))
            request.timeout = .milliseconds(200)
            #expect(await loadError(loader.load(request))?.code == .timedOut)
        }
    }

    @Test func aDeclaredLengthOverTheLimitFailsBeforeTheBody() async throws {
        try await withServerAndLoader({ $0.maximumResponseBytes = 1_000 }) { server, loader in
            let gate = TestGate()
            server.route(
                "/big",
                response: TestResponse(
                    headers: [("Content-Type", "image/png")], body: [.wait(gate)] + TestResponse.steps(testBytes(5_000))))
            let events = try await collectEventsOrError(loader.load(ImageLoad.Request(url: server.url("/big"))))
            #expect(events.error?.code == .tooLarge)
            #expect(events.progress.isEmpty)
            #expect(gate.arrivals == 1)
            gate.open()
        }
    }

    @Test func aStreamedBodyOverTheLimitFailsWhileStreaming() async throws {
        try await withServerAndLoader({ $0.maximumResponseBytes = 1_000 }) { server, loader in
            server.route("/chunked", response: .chunked(testBytes(5_000), chunkSize: 500))
            let url = server.url("/chunked")
            let outcome = try await collectEventsOrError(loader.load(ImageLoad.Request(url: url)))
            #expect(outcome.error?.code == .tooLarge)
            #expect(outcome.progress.allSatisfy { $0.receivedBytes <= 1_000 })
            #expect(!loader.shouldBlockFailedURL(url, error: outcome.error!))
        }
    }

    @Test func aConnectionClosedMidBodyIsANetworkErrorAndNotBlocked() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/cut", response: .closingMidBody(testBytes(10_000), after: 4_000))
            let url = server.url("/cut")
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(error.code == .networkError)
            #expect(!loader.shouldBlockFailedURL(url, error: error))
            #expect(server.log.outcomes("/cut") == [.closedByServer])
        }
    }

    @Test func aRefusedConnectionIsANetworkErrorAndNotBlocked() async throws {
        let refusing = try RefusingPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(refusing.port)/gone.png"))
        // The loader does not retry connection establishment, so the refusal is reported at once;
        // a short connect timeout would only race it on a loaded machine.
        try await withServerAndLoader { _, loader in
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(error.code == .networkError, "\(error)")
            #expect(!loader.shouldBlockFailedURL(url, error: error))
        }
        withExtendedLifetime(refusing) {}
    }

    @Test func aURLWithoutAHostIsInvalidAndBlocked() async throws {
        try await withServerAndLoader { _, loader in
            let url = try #require(URL(string: "http:///nohost.png"))
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(error.code == .invalidURL)
            #expect(loader.shouldBlockFailedURL(url, error: error))
        }
    }

    @Test func theBlockingPolicyIsConfigurable() async throws {
        try await withServerAndLoader({ $0.blockingPolicy = .never }) { server, loader in
            server.route("/gone", response: .status(410))
            let url = server.url("/gone")
            let error = try #require(await loadError(loader.load(ImageLoad.Request(url: url))))
            #expect(!loader.shouldBlockFailedURL(url, error: error))
            #expect(FailedURLBlockingPolicy.standard.shouldBlock(error))
        }
    }
}

/// The progress events and the error of a load expected to fail.
func collectEventsOrError(_ task: ImageLoad.Task) async throws -> (progress: [ImageLoad.Progress], error: WebImageError?) {
    var progress: [ImageLoad.Progress] = []
    do {
        for try await event in task.events {
            if case .progress(let p) = event { progress.append(p) }
        }
        return (progress, nil)
    } catch let error as WebImageError {
        return (progress, error)
    }
}

/// A loader released without `shutdown()` (a caller that drops it, a test cancelled by its time
/// limit) shuts its clients down itself: AsyncHTTPClient traps in debug builds when a running
/// client is released, which took a whole CI test process down once.
@Suite("HTTP loader: released without shutdown")
struct HTTPLoaderReleaseTests {
    @Test func aLoaderDroppedWithoutShutdownDoesNotTrap() async throws {
        let server = try await LoopbackHTTPServer.start()
        server.route("/a.png", response: .ok(Data([0x89, 0x50, 0x4E, 0x47])))
        for strictness in [false, true] {
            var loader: HTTPImageLoader? = HTTPImageLoader()
            var request = ImageLoad.Request(url: server.url("/a.png"))
            request.allowsInvalidCertificates = strictness  // the second time, the lenient client too
            let result = try await loader?.load(request).result()
            #expect(result?.data.count == 4)
            loader = nil
        }
        // The clients finish shutting down on their own; give them a moment before the process goes on.
        try await Task.sleep(for: .milliseconds(200))
        await server.shutdown()
    }
}
