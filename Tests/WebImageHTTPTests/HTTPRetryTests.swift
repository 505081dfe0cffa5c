import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// Retries against the loopback server. Waits go through a `FastForwardClock`, which records the
/// wait asked for and sleeps a thousandth of it, so a 2 s `Retry-After` costs 2 ms; time bounds
/// are generous (a starved 2-core machine) and there are no tight lower ones.
@Suite("HTTP loader: retries with backoff, Retry-After, the budget", .timeLimit(.minutes(3)))
struct HTTPRetryTests {
    /// Retries fast: waits of at most 10 ms, recorded by `clock`.
    static func retrying(_ clock: FastForwardClock, retries: Int = 2) -> (inout HTTPImageLoaderConfiguration) -> Void {
        { configuration in
            configuration.retryStrategy = .exponentialBackoff(
                maximumRetries: retries, baseDelay: .milliseconds(5), maximumDelay: .milliseconds(10))
            configuration.retryClock = clock
        }
    }

    static func retries(_ events: [ImageLoad.Event]) -> [ImageLoad.Retry] {
        events.compactMap { if case .retrying(let retry) = $0 { retry } else { nil } }
    }

    @Test func a503ThenA200IsRetriedOnceAndSucceeds() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader(Self.retrying(clock)) { server, loader in
            let data = testBytes(3_000)
            server.routeSequence("/flaky.png", [.status(503, "busy"), .ok(data)])
            let (events, result) = try await collectEvents(loader.load(ImageLoad.Request(url: server.url("/flaky.png"))))
            #expect(result?.data == data)
            #expect(server.requestCount("/flaky.png") == 2)
            let retries = Self.retries(events)
            #expect(retries.map(\.attempt) == [1])
            #expect(retries.first?.error.statusCode == 503)
            #expect(clock.waits.count == 1)
            #expect(clock.waits.allSatisfy { $0 <= .milliseconds(10) })
        }
    }

    @Test func withoutAStrategyNothingIsRetried() async throws {
        try await withServerAndLoader { server, loader in
            server.routeSequence("/once.png", [.status(503), .ok(testBytes(100))])
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/once.png"))))
            #expect(error?.statusCode == 503)
            #expect(server.requestCount("/once.png") == 1)
        }
    }

    @Test func aRequestsOwnStrategyOverridesTheLoaders() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader({ $0.retryClock = clock }) { server, loader in
            server.routeSequence("/own.png", [.status(502), .status(504), .ok(testBytes(100))])
            var request = ImageLoad.Request(url: server.url("/own.png"))
            request.retryStrategy = .exponentialBackoff(maximumRetries: 2, baseDelay: .milliseconds(1))
            _ = try await loader.load(request).result()
            #expect(server.requestCount("/own.png") == 3)
        }
    }

    @Test func a404IsNeverRetried() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader(Self.retrying(clock, retries: 5)) { server, loader in
            server.route("/missing.png", response: .status(404))
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/missing.png"))))
            #expect(error?.statusCode == 404)
            #expect(server.requestCount("/missing.png") == 1)
            #expect(clock.waits.isEmpty)
        }
    }

    @Test func retriesStopAfterTheStrategysCountWithTheLastError() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader(Self.retrying(clock, retries: 2)) { server, loader in
            server.routeSequence("/down.png", [.status(500), .status(502), .status(503)])
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/down.png"))))
            #expect(error?.statusCode == 503)
            #expect(server.requestCount("/down.png") == 3)
        }
    }

    @Test func a429WaitsForItsRetryAfterInSeconds() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader(Self.retrying(clock)) { server, loader in
            let data = testBytes(500)
            server.routeSequence("/slow-down.png", [.status(429, headers: [("Retry-After", "3")]), .ok(data)])
            let result = try await loader.load(ImageLoad.Request(url: server.url("/slow-down.png"))).result()
            #expect(result.data == data)
            #expect(server.requestCount("/slow-down.png") == 2)
            let wait = try #require(clock.waits.first)
            #expect(wait > .milliseconds(2_900) && wait <= .seconds(3), "\(wait)")
        }
    }

    @Test func a503WaitsForItsRetryAfterAsAnHTTPDate() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader({
            Self.retrying(clock)(&$0)
            $0.totalTimeout = .seconds(600)
        }) { server, loader in
            server.route("/dated.png") { request in
                // Asked again: the retry came.
                if request.index > 0 { return .ok(testBytes(200)) }
                return .status(503, headers: [("Retry-After", HTTPDate.format(Date().addingTimeInterval(120)))])
            }
            _ = try await loader.load(ImageLoad.Request(url: server.url("/dated.png"))).result()
            #expect(server.requestCount("/dated.png") == 2)
            // Two minutes ahead at second precision, read a moment later (up to a minute on a
            // starved machine): the fast-forward clock waited that long, far past the 10 s cap.
            let wait = try #require(clock.waits.first)
            #expect(wait > .seconds(60) && wait <= .seconds(120), "\(wait)")
        }
    }

    @Test func aRetryAfterBeyondTheDeadlineFailsAtOnce() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader({
            Self.retrying(clock)(&$0)
            $0.totalTimeout = .seconds(20)
        }) { server, loader in
            server.route("/later.png", response: .status(503, headers: [("Retry-After", "60")]))
            let started = ContinuousClock.now
            let error = await loadError(loader.load(ImageLoad.Request(url: server.url("/later.png"))))
            #expect(error?.statusCode == 503)
            #expect(server.requestCount("/later.png") == 1)
            #expect(clock.waits.isEmpty)
            // Waiting for the Retry-After would take 60 s of real time at least.
            #expect(ContinuousClock.now - started < .seconds(59))
        }
    }

    @Test func aConnectionClosedMidBodyIsRetried() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader(Self.retrying(clock)) { server, loader in
            let data = testBytes(10_000)
            server.routeSequence("/cut.png", [.closingMidBody(data, after: 4_000), .ok(data)])
            let (events, result) = try await collectEvents(loader.load(ImageLoad.Request(url: server.url("/cut.png"))))
            #expect(result?.data == data)
            #expect(server.requestCount("/cut.png") == 2)
            #expect(Self.retries(events).first?.error.code == .networkError)
            // The retry starts from zero: the last progress counts the whole body once.
            #expect(progressEvents(events).last?.receivedBytes == data.count)
        }
    }

    @Test func callersSharingADownloadShareOneRetrySequence() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader(Self.retrying(clock)) { server, loader in
            let data = testBytes(2_000)
            let gate = TestGate()
            // The first answer waits at the gate until every caller has joined, then is a 503.
            server.routeSequence(
                "/shared.png", [TestResponse(status: 503, body: [], beforeHead: [.wait(gate)]), .ok(data)])
            let url = server.url("/shared.png")
            let tasks = (0..<5).map { _ in loader.load(ImageLoad.Request(url: url)) }
            await gate.waitForArrivals(1)
            gate.open()
            let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for task in tasks {
                    group.addTask {
                        let (events, result) = try await collectEvents(task)
                        return (Self.retries(events).count, result?.data == data)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 5)
            #expect(outcomes.allSatisfy { $0.0 == 1 && $0.1 })
            #expect(server.requestCount("/shared.png") == 2)
            #expect(clock.waits.count == 1)
        }
    }

    @Test func aSpentBudgetStopsRetriesForThatHost() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader({
            Self.retrying(clock, retries: 3)(&$0)
            $0.retryBudget = RetryBudget(ratio: 0, capacity: 2)
        }) { server, loader in
            server.route("/outage.png", response: .status(503))
            let events = loader.events()
            let url = server.url("/outage.png")
            // Two tokens: the first download gets both of its retries' worth (3 asked, 2 granted) …
            #expect(await loadError(loader.load(ImageLoad.Request(url: url)))?.statusCode == 503)
            #expect(server.requestCount("/outage.png") == 3)
            // … and the next ones are not retried at all.
            for _ in 0..<3 { _ = await loadError(loader.load(ImageLoad.Request(url: url))) }
            #expect(server.requestCount("/outage.png") == 6)
            var refused = 0
            for await event in events {
                if case .retryRefused(let refusedURL, let error) = event {
                    #expect(refusedURL == url)
                    #expect(error.statusCode == 503)
                    refused += 1
                    if refused == 4 { break }
                }
            }
            #expect(refused == 4)
        }
    }

    @Test func theBudgetKeepsRetriesNearATenthOfTheRequests() async throws {
        let clock = FastForwardClock()
        try await withServerAndLoader({
            Self.retrying(clock, retries: 2)(&$0)
            $0.retryBudget = RetryBudget(ratio: 0.1, capacity: 2)
        }) { server, loader in
            server.route("/storm.png", response: .status(500))
            let url = server.url("/storm.png")
            for _ in 0..<40 { _ = await loadError(loader.load(ImageLoad.Request(url: url))) }
            // 40 downloads; 2 tokens to start with plus one per ten: at most 6 retries.
            let requests = server.requestCount("/storm.png")
            #expect(requests >= 40 && requests <= 46, "\(requests)")
        }
    }

    @Test func cancellingDuringTheWaitEndsTheLoad() async throws {
        try await withServerAndLoader({
            $0.retryStrategy = ExponentialBackoffRetryStrategy(
                maximumRetries: 1, baseDelay: .seconds(60), maximumDelay: .seconds(60), randomFraction: { 1 })
            $0.retryClock = FastForwardClock(scale: 1)
        }) { server, loader in
            server.routeSequence("/wait.png", [.status(503), .ok(testBytes(10))])
            let events = loader.events()
            let task = loader.load(ImageLoad.Request(url: server.url("/wait.png")))
            for await event in events {
                if case .retrying = event { break }
            }
            task.cancel()
            #expect(await loadError(task)?.code == .cancelled)
            #expect(server.requestCount("/wait.png") == 1)
        }
    }
}
