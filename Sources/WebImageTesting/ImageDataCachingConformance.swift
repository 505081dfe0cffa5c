import Foundation
public import WebImage

/// The behaviour every ``ImageDataCaching`` implementation must show, as a suite that returns its
/// failures (so it runs under any test framework): bytes and metadata round trips, the bookkeeping
/// fields the cache sets, overwrite, removal, totals, the empty key, revalidation refresh,
/// concurrent use.
///
/// Each check gets a fresh, empty cache from the factory, whose limits must hold a few small
/// entries.
///
/// ```swift
/// @Test func diskCacheConforms() async {
///     let failures = await ImageDataCachingConformance.run { try DiskCache(configuration: configuration) }
///     #expect(failures == [])
/// }
/// ```
public enum ImageDataCachingConformance {
    /// Runs every check; returns one line per failure (empty when the cache conforms).
    public static func run(makeCache: @Sendable () async throws -> any ImageDataCaching) async -> [String] {
        let checks: [(String, @Sendable (any ImageDataCaching) async throws -> [String])] = [
            ("empty", empty), ("storeAndRead", storeAndRead), ("metadata", metadata), ("overwrite", overwrite),
            ("remove", remove), ("removeAll", removeAll), ("totals", totals), ("emptyKey", emptyKey),
            ("revalidation", revalidation), ("concurrentUse", concurrentUse),
        ]
        var failures: [String] = []
        for (name, check) in checks {
            do {
                let cache = try await makeCache()
                failures += try await check(cache).map { "\(name): \($0)" }
            } catch {
                failures.append("\(name): threw \(error)")
            }
        }
        return failures
    }

    private static func bytes(_ seed: Int, count: Int = 300) -> Data { ImageCacheConformance.data(seed: seed, count: count) }

    private static func empty(_ cache: any ImageDataCaching) async throws -> [String] {
        var failures: [String] = []
        if try await cache.entry(forKey: "missing") != nil { failures.append("entry on an empty cache") }
        if try await cache.data(forKey: "missing") != nil { failures.append("data on an empty cache") }
        if try await cache.containsData(forKey: "missing") { failures.append("containsData on an empty cache") }
        if try await cache.count() != 0 { failures.append("count not 0") }
        if try await cache.totalBytes() != 0 { failures.append("totalBytes not 0") }
        if try await cache.recordRevalidation(forKey: "missing", http: HTTPCacheMetadata(etag: "\"x\"")) {
            failures.append("recordRevalidation updated a missing entry")
        }
        return failures
    }

    private static func storeAndRead(_ cache: any ImageDataCaching) async throws -> [String] {
        let stored = bytes(1)
        try await cache.setData(stored, forKey: "a", metadata: nil)
        var failures: [String] = []
        if try await cache.entry(forKey: "a")?.data != stored { failures.append("entry bytes differ") }
        if try await cache.data(forKey: "a") != stored { failures.append("data(forKey:) differs") }
        if try await !cache.containsData(forKey: "a") { failures.append("containsData false after store") }
        if try await cache.containsData(forKey: "b") { failures.append("containsData true for another key") }
        return failures
    }

    private static func metadata(_ cache: any ImageDataCaching) async throws -> [String] {
        var stored = CacheEntryMetadata(
            originalURL: URL(string: "https://example.com/a.webp?x=1"), contentType: "image/webp",
            http: HTTPCacheMetadata(
                etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", cacheControl: "max-age=600",
                expires: "Wed, 21 Oct 2015 08:28:00 GMT", date: "Wed, 21 Oct 2015 07:28:00 GMT", age: 12),
            extendedData: Data([1, 2, 3, 0, 255]), byteSize: 5)
        try await cache.setData(bytes(2, count: 777), forKey: "m", metadata: stored)
        guard let read = try await cache.entry(forKey: "m")?.metadata else { return ["no metadata read back"] }
        var failures: [String] = []
        if read.byteSize != 777 { failures.append("byteSize \(read.byteSize), not set by the cache") }
        if read.modifiedAt < read.createdAt { failures.append("modifiedAt before createdAt") }
        stored.byteSize = read.byteSize
        stored.createdAt = read.createdAt
        stored.modifiedAt = read.modifiedAt
        stored.lastAccessAt = read.lastAccessAt
        if read != stored { failures.append("metadata differs: \(read) vs \(stored)") }
        return failures
    }

    private static func overwrite(_ cache: any ImageDataCaching) async throws -> [String] {
        try await cache.setData(bytes(3, count: 100), forKey: "o", metadata: CacheEntryMetadata(contentType: "image/png"))
        let created = try await cache.entry(forKey: "o")?.metadata.createdAt
        try await cache.setData(bytes(4, count: 50), forKey: "o", metadata: CacheEntryMetadata(contentType: "image/gif"))
        var failures: [String] = []
        let read = try await cache.entry(forKey: "o")
        if read?.data != bytes(4, count: 50) { failures.append("kept the old bytes") }
        if read?.metadata.contentType != "image/gif" { failures.append("kept the old metadata") }
        if read?.metadata.createdAt != created { failures.append("createdAt not kept when overwritten") }
        if try await cache.count() != 1 { failures.append("overwrite added an entry") }
        if try await cache.totalBytes() != 50 { failures.append("totalBytes not the new size") }
        return failures
    }

    private static func remove(_ cache: any ImageDataCaching) async throws -> [String] {
        try await cache.setData(bytes(5), forKey: "r1", metadata: nil)
        try await cache.setData(bytes(6), forKey: "r2", metadata: nil)
        try await cache.removeData(forKey: "r1")
        try await cache.removeData(forKey: "never-stored")
        var failures: [String] = []
        if try await cache.entry(forKey: "r1") != nil { failures.append("removed key still read") }
        if try await cache.containsData(forKey: "r1") { failures.append("removed key still contained") }
        if try await cache.data(forKey: "r2") != bytes(6) { failures.append("remove took another key") }
        if try await cache.count() != 1 { failures.append("count after remove") }
        return failures
    }

    private static func removeAll(_ cache: any ImageDataCaching) async throws -> [String] {
        for index in 0..<5 { try await cache.setData(bytes(index), forKey: "k\(index)", metadata: nil) }
        try await cache.removeAllData()
        var failures: [String] = []
        if try await cache.count() != 0 { failures.append("count after removeAllData") }
        if try await cache.totalBytes() != 0 { failures.append("totalBytes after removeAllData") }
        if try await cache.entry(forKey: "k0") != nil { failures.append("hit after removeAllData") }
        return failures
    }

    private static func totals(_ cache: any ImageDataCaching) async throws -> [String] {
        var expected = 0
        for index in 0..<6 {
            let data = bytes(index, count: 100 + index)
            expected += data.count
            try await cache.setData(data, forKey: "t\(index)", metadata: nil)
        }
        var failures: [String] = []
        if try await cache.count() != 6 { failures.append("count not 6") }
        let total = try await cache.totalBytes()
        if total != expected { failures.append("totalBytes \(total), not \(expected)") }
        return failures
    }

    /// The empty string is not a key: a store fails with `invalidCacheKey` and keeps nothing.
    private static func emptyKey(_ cache: any ImageDataCaching) async throws -> [String] {
        var failures: [String] = []
        do {
            try await cache.setData(bytes(7), forKey: "", metadata: nil)
            failures.append("setData under \"\" did not throw")
        } catch let error as WebImageError where error.code == .invalidCacheKey {
        } catch {
            failures.append("setData under \"\" threw \(error), not invalidCacheKey")
        }
        if try await cache.count() != 0 { failures.append("an entry was stored under \"\"") }
        if try await cache.entry(forKey: "") != nil { failures.append("entry under \"\" hit") }
        return failures
    }

    /// A 304 replaces the headers it carries, keeps the others and the bytes, and restarts the
    /// modification date.
    private static func revalidation(_ cache: any ImageDataCaching) async throws -> [String] {
        let stored = HTTPCacheMetadata(
            etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", cacheControl: "max-age=600")
        try await cache.setData(bytes(8), forKey: "v", metadata: CacheEntryMetadata(contentType: "image/png", http: stored))
        guard let before = try await cache.entry(forKey: "v")?.metadata else { return ["no entry after store"] }
        let updated = try await cache.recordRevalidation(
            forKey: "v", http: HTTPCacheMetadata(etag: "\"v2\"", date: "Thu, 22 Oct 2015 07:28:00 GMT"))
        var failures: [String] = []
        if !updated { failures.append("recordRevalidation returned false for a stored entry") }
        guard let after = try await cache.entry(forKey: "v") else { return failures + ["entry gone after a 304"] }
        let expected = HTTPCacheMetadata(
            etag: "\"v2\"", lastModified: stored.lastModified, cacheControl: stored.cacheControl,
            date: "Thu, 22 Oct 2015 07:28:00 GMT")
        if after.metadata.http != expected { failures.append("headers \(after.metadata.http), not \(expected)") }
        if after.data != bytes(8) { failures.append("bytes changed") }
        if after.metadata.contentType != "image/png" { failures.append("content type changed") }
        if after.metadata.modifiedAt < before.modifiedAt { failures.append("modification date went back") }
        return failures
    }

    private static func concurrentUse(_ cache: any ImageDataCaching) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for index in 0..<12 {
                        let key = "w\(worker)-\(index)"
                        let data = bytes(worker * 100 + index, count: 64 + index)
                        try await cache.setData(data, forKey: key, metadata: nil)
                        if try await cache.data(forKey: key) != data { failures.append("\(key): wrong bytes") }
                    }
                    return failures
                }
            }
            return try await group.reduce([], +)
        }
    }
}
