import Foundation
import Testing
import WebImage

/// RFC 9111 freshness from stored headers: lifetimes, ages, directives.
@Suite("HTTP freshness")
struct HTTPFreshnessTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func directivesAreRead() {
        let directives = CacheControlDirectives("Public, MAX-AGE=\"600\", s-maxage=60, must-revalidate, no-cache, proxy-revalidate")
        #expect(directives.maxAge == 600 && directives.sharedMaxAge == 60)
        #expect(directives.mustRevalidate && directives.noCache && directives.proxyRevalidate && !directives.noStore)
        #expect(CacheControlDirectives("max-age=abc").maxAge == 0, "an invalid lifetime is stale at once")
        #expect(CacheControlDirectives("max-age=-5").maxAge == 0)
        #expect(CacheControlDirectives("max-age=99999999999999999999").maxAge == 2_147_483_648)
        #expect(CacheControlDirectives(nil) == CacheControlDirectives(""))
    }

    @Test func lifetimesAndAges() {
        let maxAge = HTTPCacheMetadata(cacheControl: "max-age=60")
        #expect(maxAge.freshUntil(receivedAt: Self.received) == Self.received.addingTimeInterval(60))
        #expect(maxAge.isFresh(receivedAt: Self.received, now: Self.received.addingTimeInterval(59)))
        #expect(!maxAge.isFresh(receivedAt: Self.received, now: Self.received.addingTimeInterval(60)))
        // The age on arrival counts: Age, or the time since Date, whichever is larger.
        let aged = HTTPCacheMetadata(cacheControl: "max-age=60", date: HTTPDate.format(Self.received.addingTimeInterval(-10)), age: 25)
        #expect(aged.freshUntil(receivedAt: Self.received) == Self.received.addingTimeInterval(35))
        // s-maxage is for shared caches only.
        let shared = HTTPCacheMetadata(cacheControl: "max-age=600, s-maxage=60")
        #expect(shared.freshUntil(receivedAt: Self.received, shared: true) == Self.received.addingTimeInterval(60))
        #expect(shared.freshUntil(receivedAt: Self.received) == Self.received.addingTimeInterval(600))
        // Expires − Date; an Expires that is not a date is already stale.
        let expires = HTTPCacheMetadata(
            expires: HTTPDate.format(Self.received.addingTimeInterval(120)), date: HTTPDate.format(Self.received))
        #expect(expires.freshUntil(receivedAt: Self.received) == Self.received.addingTimeInterval(120))
        #expect(HTTPCacheMetadata(expires: "0").freshUntil(receivedAt: Self.received) == .distantPast)
        #expect(HTTPCacheMetadata(cacheControl: "max-age=600, no-cache").freshUntil(receivedAt: Self.received) == .distantPast)
        #expect(!HTTPCacheMetadata(cacheControl: "max-age=0").isFresh(receivedAt: Self.received, now: Self.received.addingTimeInterval(-1)))
        // No lifetime stated: fresh until the cache removes it.
        let none = HTTPCacheMetadata(etag: "\"a\"")
        #expect(none.freshUntil(receivedAt: Self.received) == nil)
        #expect(none.isFresh(receivedAt: Self.received, now: .distantFuture))
    }

    @Test func staleOnErrorAndValidators() {
        #expect(HTTPCacheMetadata(cacheControl: "max-age=60").allowsStaleOnError())
        #expect(!HTTPCacheMetadata(cacheControl: "max-age=60, must-revalidate").allowsStaleOnError())
        #expect(!HTTPCacheMetadata(cacheControl: "no-cache").allowsStaleOnError())
        #expect(HTTPCacheMetadata(cacheControl: "proxy-revalidate").allowsStaleOnError())
        #expect(!HTTPCacheMetadata(cacheControl: "proxy-revalidate").allowsStaleOnError(shared: true))
        #expect(HTTPCacheMetadata(etag: "\"a\"").hasSameValidators(as: HTTPCacheMetadata(etag: "\"a\"", cacheControl: "x")))
        #expect(!HTTPCacheMetadata(etag: "\"a\"").hasSameValidators(as: HTTPCacheMetadata(etag: "\"b\"")))
        #expect(HTTPCacheMetadata(lastModified: "d").hasSameValidators(as: HTTPCacheMetadata(lastModified: "d")))
        #expect(!HTTPCacheMetadata().hasSameValidators(as: HTTPCacheMetadata()))
    }

    @Test func entryFreshnessCountsFromItsModificationDate() {
        let metadata = CacheEntryMetadata(http: HTTPCacheMetadata(cacheControl: "max-age=30"), modifiedAt: Self.received)
        #expect(metadata.freshUntil() == Self.received.addingTimeInterval(30))
        #expect(metadata.isFresh(at: Self.received.addingTimeInterval(29)))
        #expect(!metadata.isFresh(at: Self.received.addingTimeInterval(31)))
    }
}
