import Foundation
import Testing
import WebImage
import WebImageTesting


@Suite("Failed-URL cache")
struct FailedURLCacheTests {
    let url = URL(string: "https://example.com/broken.png")!

    @Test("Permanent failures block for the TTL, then expire")
    func permanentWithTTL() {
        let clock = ManualClock()
        let cache = FailedURLCache(clock: clock, permanentTTL: .seconds(60))
        #expect(cache.recordFailure(url, error: WebImageError(.badImageData, "corrupt")))
        #expect(cache.isBlocked(url))
        clock.advance(by: .seconds(59))
        #expect(cache.isBlocked(url))
        clock.advance(by: .seconds(1))
        #expect(!cache.isBlocked(url))
        #expect(cache.count == 0)
    }

    @Test("Without a TTL, permanent failures block for the cache's lifetime (SDWebImage)")
    func permanentForever() {
        let clock = ManualClock()
        let cache = FailedURLCache(clock: clock)
        cache.recordFailure(url, error: WebImageError(.invalidURL, "bad"))
        clock.advance(by: .seconds(86400 * 365))
        #expect(cache.isBlocked(url))
    }

    @Test("Transient failures never block", arguments: [WebImageError.Code.cancelled, .timedOut, .cacheIO, .invalidDownloadResponse])
    func transient(code: WebImageError.Code) {
        let cache = FailedURLCache(clock: ManualClock())
        #expect(!cache.recordFailure(url, error: WebImageError(code, "x")))
        #expect(!cache.isBlocked(url))
    }

    @Test("A success clears the entry; a custom classifier can block for a chosen time")
    func successAndCustom() {
        let clock = ManualClock()
        let cache = FailedURLCache(clock: clock) { _ in .blockFor(.seconds(5)) }
        cache.recordFailure(url, error: WebImageError(.timedOut, "slow"))
        #expect(cache.isBlocked(url))
        cache.recordSuccess(url)
        #expect(!cache.isBlocked(url))
        cache.recordFailure(url, error: WebImageError(.timedOut, "slow"))
        clock.advance(by: .seconds(5))
        #expect(!cache.isBlocked(url))
    }
}
