import Foundation
import Testing
import WebImage
import WebImageTesting


@Suite("Failed-URL cache")
struct FailedURLCacheTests {
    let url = URL(string: "https://example.com/broken.png")!

    @Test("A failure blocks for the time to live, then expires")
    func blocksForTimeToLive() {
        let clock = ManualClock()
        let cache = FailedURLCache(clock: clock, timeToLive: .seconds(60))
        cache.recordFailure(url, error: WebImageError(.badImageData, "corrupt"))
        #expect(cache.isBlocked(url))
        clock.advance(by: .seconds(59))
        #expect(cache.isBlocked(url))
        clock.advance(by: .seconds(1))
        #expect(!cache.isBlocked(url))
        #expect(cache.count == 0)
    }

    @Test("Without a time to live, a failure blocks for the cache's lifetime (SDWebImage)")
    func blocksForever() {
        let clock = ManualClock()
        let cache = FailedURLCache(clock: clock)
        cache.recordFailure(url, error: WebImageError(.invalidURL, "bad"))
        clock.advance(by: .seconds(86400 * 365))
        #expect(cache.isBlocked(url))
    }

    @Test("A success clears the entry")
    func successClears() {
        let cache = FailedURLCache(clock: ManualClock(), timeToLive: .seconds(5))
        cache.recordFailure(url, error: WebImageError(.badImageData, "x"))
        #expect(cache.isBlocked(url))
        cache.recordSuccess(url)
        #expect(!cache.isBlocked(url))
    }
}
