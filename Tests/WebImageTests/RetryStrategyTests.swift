import Foundation
import Testing
import WebImage

@Suite("Retries: the backoff strategy, transient failures, the budget, Retry-After")
struct RetryStrategyTests {
    static let url = URL(string: "https://example.com/a.png")!

    static func status(_ code: Int, headers: ImageLoad.Headers = [:]) -> WebImageError {
        WebImageError.invalidStatus(code, response: ImageLoad.Response(url: url, statusCode: code, headers: headers))
    }

    static func context(attempt: Int, error: WebImageError = status(503), retryAfter: Duration? = nil, remaining: Duration? = nil)
        -> RetryContext
    {
        RetryContext(
            url: url, attempt: attempt, error: error, isTransient: TransientFailurePolicy.standard.isTransient(error),
            retryAfter: retryAfter, remainingTime: remaining)
    }

    @Test func theBoundDoublesFromTheBaseUpToTheCap() {
        let strategy = ExponentialBackoffRetryStrategy(
            maximumRetries: 10, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(700), randomFraction: { 1 })
        let delays = (1...6).map { strategy.retryDelay(for: Self.context(attempt: $0)) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(700), .milliseconds(700), .milliseconds(700)])
        // A huge attempt number neither overflows nor goes past the cap.
        #expect(strategy.bound(afterAttempt: 10_000) == .milliseconds(700))
    }

    @Test func fullJitterPicksAnywhereBelowTheBound() {
        let half = ExponentialBackoffRetryStrategy(baseDelay: .milliseconds(100), randomFraction: { 0.5 })
        #expect(half.retryDelay(for: Self.context(attempt: 2)) == .milliseconds(100))
        let zero = ExponentialBackoffRetryStrategy(baseDelay: .milliseconds(100), randomFraction: { 0 })
        #expect(zero.retryDelay(for: Self.context(attempt: 1)) == .zero)
        let random = ExponentialBackoffRetryStrategy(maximumRetries: 5, baseDelay: .milliseconds(100))
        for attempt in 1...5 {
            let delay = try! #require(random.retryDelay(for: Self.context(attempt: attempt)))
            #expect(delay >= .zero && delay <= random.bound(afterAttempt: attempt))
        }
    }

    @Test func itGivesUpAfterItsRetriesOnPermanentFailuresAndPastTheDeadline() {
        let strategy = ExponentialBackoffRetryStrategy(maximumRetries: 2, baseDelay: .milliseconds(100), randomFraction: { 1 })
        #expect(strategy.retryDelay(for: Self.context(attempt: 2)) != nil)
        #expect(strategy.retryDelay(for: Self.context(attempt: 3)) == nil)
        for code in [404, 400, 403, 410, 501, 505] {
            #expect(strategy.retryDelay(for: Self.context(attempt: 1, error: Self.status(code))) == nil, "\(code)")
        }
        #expect(strategy.retryDelay(for: Self.context(attempt: 1, remaining: .milliseconds(100))) == nil)
        #expect(strategy.retryDelay(for: Self.context(attempt: 1, remaining: .milliseconds(101))) == .milliseconds(100))
        #expect(ExponentialBackoffRetryStrategy(maximumRetries: 0).retryDelay(for: Self.context(attempt: 1)) == nil)
    }

    @Test func retryAfterReplacesTheComputedWaitEvenBeyondTheCap() {
        let strategy = ExponentialBackoffRetryStrategy(maximumDelay: .seconds(1), randomFraction: { 1 })
        #expect(strategy.retryDelay(for: Self.context(attempt: 1, error: Self.status(429), retryAfter: .seconds(5))) == .seconds(5))
        #expect(strategy.retryDelay(for: Self.context(attempt: 1, retryAfter: .seconds(5), remaining: .seconds(4))) == nil)
    }

    @Test func transientFailuresAreTheServerAndTimingOnes() {
        let policy = TransientFailurePolicy.standard
        for code in [408, 429, 500, 502, 503, 504] { #expect(policy.isTransient(Self.status(code)), "\(code)") }
        for code in [400, 401, 403, 404, 410, 451, 501, 505] { #expect(!policy.isTransient(Self.status(code)), "\(code)") }
        #expect(policy.isTransient(WebImageError(.timedOut, "idle")))
        for code: WebImageError.Code in [.networkError, .cancelled, .badImageData, .urlRefused, .invalidURL, .tooLarge] {
            #expect(!policy.isTransient(WebImageError(code, "x")), "\(code)")
        }
        #expect(!policy.isTransient(CancellationError()))
    }

    @Test func theBudgetAllowsItsCapacityThenOneRetryPerTenRequests() {
        let budget = RetryBudget(ratio: 0.1, capacity: 2)
        #expect(budget.withdraw(host: "a.test"))
        #expect(budget.withdraw(host: "a.test"))
        #expect(!budget.withdraw(host: "a.test"))
        // Another host has its own bucket.
        #expect(budget.withdraw(host: "b.test"))
        for _ in 0..<9 { budget.recordRequest(host: "a.test") }
        #expect(!budget.withdraw(host: "a.test"))
        budget.recordRequest(host: "a.test")
        #expect(budget.withdraw(host: "a.test"))
        #expect(!budget.withdraw(host: "a.test"))
        // Requests refill up to the capacity, never beyond.
        for _ in 0..<1_000 { budget.recordRequest(host: "a.test") }
        #expect(budget.tokens(host: "a.test") == 2)
    }

    @Test func theBudgetForgetsTheFullestHostBeyondItsLimit() {
        let budget = RetryBudget(ratio: 0, capacity: 3, maximumHosts: 2)
        _ = budget.withdraw(host: "a")
        _ = budget.withdraw(host: "a")
        _ = budget.withdraw(host: "b")
        _ = budget.withdraw(host: "c")
        // b and c hold 2 tokens, a holds 1: one of the fuller ones went, a is still remembered.
        #expect(budget.tokens(host: "a") == 1)
    }

    @Test func httpDatesParseInTheirThreeForms() throws {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT") == Date(timeIntervalSince1970: 1_835_481_599))
        for bad in ["", "tomorrow", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
        let now = Date()
        let rounded = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        #expect(HTTPDate.parse(HTTPDate.format(now)) == rounded)
    }

    @Test func retryAfterReadsSecondsAndDates() {
        func response(_ value: String?) -> ImageLoad.Response {
            ImageLoad.Response(url: Self.url, statusCode: 503, headers: value.map { ["Retry-After": $0] } ?? [:])
        }
        let now = Date(timeIntervalSince1970: 784_111_770)
        #expect(response("120").retryAfter(now: now) == .seconds(120))
        #expect(response(" 0 ").retryAfter(now: now) == .zero)
        #expect(response("Sun, 06 Nov 1994 08:49:37 GMT").retryAfter(now: now) == .seconds(7))
        #expect(response("Sun, 06 Nov 1994 08:49:00 GMT").retryAfter(now: now) == .zero)
        #expect(response("-5").retryAfter(now: now) == nil)
        #expect(response("soon").retryAfter(now: now) == nil)
        #expect(response(nil).retryAfter(now: now) == nil)
    }
}
