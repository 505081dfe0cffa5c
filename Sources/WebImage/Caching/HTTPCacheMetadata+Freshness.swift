public import Foundation

extension HTTPCacheMetadata {
    /// The stored `Cache-Control` value's directives.
    public var directives: CacheControlDirectives { CacheControlDirectives(cacheControl) }

    /// When a response received at `receivedAt` stops being fresh (RFC 9111 §4.2): its lifetime
    /// (`s-maxage` for a `shared` cache, else `max-age`, else `Expires` − `Date`; 0 with
    /// `no-cache` or an `Expires` that is not a date) less the age it already had when it arrived
    /// (the larger of `Age` and `receivedAt` − `Date`); `Date.distantPast` for a lifetime of 0
    /// (never fresh: every use revalidates). `nil` when the response states no lifetime:
    /// such an entry stays fresh until its cache removes it (SDWebImage's rule; RFC 9111 §4.2.2
    /// allows this choice of heuristic).
    ///
    /// ```swift
    /// let http = HTTPCacheMetadata(cacheControl: "max-age=60")
    /// http.freshUntil(receivedAt: storedAt)   // storedAt + 60 s
    /// ```
    public func freshUntil(receivedAt: Date, shared: Bool = false) -> Date? {
        let directives = directives
        let lifetime: TimeInterval
        if directives.noCache {
            lifetime = 0
        } else if shared, let sharedMaxAge = directives.sharedMaxAge {
            lifetime = TimeInterval(sharedMaxAge)
        } else if let maxAge = directives.maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires {
            let origin = date.flatMap { HTTPDate.parse($0) } ?? receivedAt
            lifetime = HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(origin)) } ?? 0
        } else {
            return nil
        }
        // Never fresh, however the stored dates round.
        guard lifetime > 0 else { return .distantPast }
        return receivedAt.addingTimeInterval(lifetime - initialAge(receivedAt: receivedAt))
    }

    /// Whether a response received at `receivedAt` is still fresh at `now`
    /// (``freshUntil(receivedAt:shared:)``; one stating no lifetime always is).
    public func isFresh(receivedAt: Date, now: Date, shared: Bool = false) -> Bool {
        freshUntil(receivedAt: receivedAt, shared: shared).map { now < $0 } ?? true
    }

    /// Whether a stale copy may answer when its revalidation fails (a network error, a 5xx): not
    /// with `must-revalidate` or `no-cache` (nor `proxy-revalidate` in a `shared` cache), which
    /// ask for the failure instead (RFC 9111 §4.2.4, §5.2.2.2).
    public func allowsStaleOnError(shared: Bool = false) -> Bool {
        let directives = directives
        return !(directives.mustRevalidate || directives.noCache || (shared && directives.proxyRevalidate))
    }

    /// Whether `other` names the same representation: an equal ETag, else (neither has one) an
    /// equal Last-Modified; false when there is no validator to compare.
    public func hasSameValidators(as other: HTTPCacheMetadata) -> Bool {
        if etag != nil || other.etag != nil { return etag == other.etag }
        return lastModified != nil && lastModified == other.lastModified
    }

    /// The age the response had when it arrived: the larger of its `Age` and the time since its
    /// `Date` (RFC 9111 §4.2.3, without the request's round trip, which a store does not know).
    private func initialAge(receivedAt: Date) -> TimeInterval {
        let apparent = date.flatMap { HTTPDate.parse($0) }.map { max(0, receivedAt.timeIntervalSince($0)) } ?? 0
        return max(apparent, TimeInterval(max(age ?? 0, 0)))
    }
}

extension CacheEntryMetadata {
    /// When the entry stops being fresh: its HTTP headers' deadline counted from ``modifiedAt``
    /// (when its bytes were stored or last revalidated); `nil` when they state no lifetime
    /// (``HTTPCacheMetadata/freshUntil(receivedAt:shared:)``).
    public func freshUntil(shared: Bool = false) -> Date? {
        http.freshUntil(receivedAt: modifiedAt, shared: shared)
    }

    /// Whether the entry is fresh at `now`: a fresh entry is used without asking its origin; a
    /// stale one is revalidated with its validators first.
    public func isFresh(at now: Date, shared: Bool = false) -> Bool {
        http.isFresh(receivedAt: modifiedAt, now: now, shared: shared)
    }
}
