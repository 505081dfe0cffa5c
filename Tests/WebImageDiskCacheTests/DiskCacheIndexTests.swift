import Foundation
import Testing
import WebImage
import WebImageDiskCache

/// The index on disk: closing, the write-ahead log's size, batched access order, revalidation
/// and the blocked failed URLs it keeps.
@Suite("DiskCache index")
struct DiskCacheIndexTests {
    private func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    @Test func closeCheckpointsAndTruncatesTheWriteAheadLog() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url, maxSize: 20_000))
        for index in 0..<15 { try await cache.setData(bytes(600, seed: index), forKey: "https://example.com/\(index).png") }
        let wal = root.url.appendingPathComponent("index.sqlite-wal")
        #expect(fileSize(wal) > 0)
        try await cache.close()
        #expect(fileSize(wal) == 0)
        #expect(fileSize(root.url.appendingPathComponent("index.sqlite")) < 64 * 1024)
        do {
            _ = try await cache.data(forKey: "https://example.com/0.png")
            Issue.record("a closed cache answered")
        } catch let error as WebImageError {
            #expect(error.code == .cacheIO)
        }
        try await cache.close()  // twice: nothing happens

        let reopened = try DiskCache(configuration: .testing(root.url, maxSize: 20_000))
        #expect(try await reopened.count() == 15)
        #expect(try await reopened.data(forKey: "https://example.com/3.png") == bytes(600, seed: 3))
        try await reopened.close()
    }

    @Test func theWriteAheadLogStaysSmallWhileTheCacheIsOpen() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url, maxSize: 100_000))
        let wal = root.url.appendingPathComponent("index.sqlite-wal")
        var largest = 0
        for index in 0..<1500 {
            try await cache.setData(bytes(100, seed: index), forKey: "https://example.com/\(index).png")
            largest = max(largest, fileSize(wal))
        }
        // SQLite's default checkpoints at 1000 pages (4 MB) and never truncates the log.
        #expect(largest <= 3 << 19, "the write-ahead log reached \(largest) bytes")
        try await cache.close()
    }

    @Test func readsWriteTheirAccessOrderInBatches() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        var configuration = DiskCacheConfiguration.testing(root.url, clock: clock)
        configuration.accessBatchSize = 4
        configuration.accessBatchInterval = .seconds(3600)
        let reader = try DiskCache(configuration: configuration)
        try await reader.setData(bytes(10), forKey: "k")
        let stored = clock.now()
        let observer = try DiskCache(configuration: .testing(root.url, clock: clock))  // another process's view
        // The sweep each cache runs once opened is a write, and a write flushes the pending
        // accesses: let it finish first, so it cannot land between the reads on a loaded machine.
        await reader.waitUntilOpened()
        await observer.waitUntilOpened()
        clock.advance(by: 10)
        for _ in 0..<3 { #expect(try await reader.data(forKey: "k") == bytes(10)) }
        #expect(try await observer.metadata(forKey: "k")?.lastAccessAt == stored)  // not written yet
        #expect(try await reader.metadata(forKey: "k")?.lastAccessAt == stored.addingTimeInterval(10))
        _ = try await reader.data(forKey: "k")  // the fourth read writes the batch
        #expect(try await observer.metadata(forKey: "k")?.lastAccessAt == stored.addingTimeInterval(10))

        clock.advance(by: 5)
        _ = try await reader.data(forKey: "k")
        try await reader.close()  // closing writes what is pending
        #expect(try await observer.metadata(forKey: "k")?.lastAccessAt == stored.addingTimeInterval(15))
        try await observer.close()
    }

    @Test func batchedReadsStillDecideWhatIsEvicted() async throws {
        let root = TemporaryDirectory()
        var configuration = DiskCacheConfiguration.testing(root.url, maxSize: 1000)
        configuration.accessBatchInterval = .seconds(3600)
        let cache = try DiskCache(configuration: configuration)
        for key in ["a", "b", "c", "d"] { try await cache.setData(bytes(200), forKey: key) }
        _ = try await cache.data(forKey: "b")
        _ = try await cache.data(forKey: "a")  // pending: b then a are the most recently used
        try await cache.setData(bytes(300), forKey: "e")  // 1100 > 1000 → trim to 800: c, d go
        for (key, kept) in [("a", true), ("b", true), ("c", false), ("d", false), ("e", true)] {
            #expect(try await cache.containsData(forKey: key) == kept, "\(key)")
        }
    }

    @Test func aRevalidationRefreshesTheValidatorsAndTheModificationDate() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let cache = try DiskCache(configuration: .testing(root.url, maxAge: 100, clock: clock))
        var metadata = CacheEntryMetadata(originalURL: URL(string: "https://example.com/a.png"), contentType: "image/png")
        metadata.http = HTTPCacheMetadata(
            etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", cacheControl: "max-age=60",
            date: "Mon, 01 Jan 2024 00:00:00 GMT")
        try await cache.setData(bytes(50), forKey: "a", metadata: metadata)
        let stored = clock.now()
        clock.advance(by: 90)
        let refreshed = try await cache.recordRevalidation(
            forKey: "a", http: HTTPCacheMetadata(etag: "\"v2\"", cacheControl: "max-age=600", date: "Tue, 02 Jan 2024 00:00:00 GMT"))
        #expect(refreshed)
        let after = try #require(try await cache.metadata(forKey: "a"))
        #expect(after.http.etag == "\"v2\"")
        #expect(after.http.lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")  // absent from the 304: kept
        #expect(after.http.cacheControl == "max-age=600")
        #expect(after.http.date == "Tue, 02 Jan 2024 00:00:00 GMT")
        #expect(after.createdAt == stored && after.modifiedAt == stored.addingTimeInterval(90))
        #expect(after.contentType == "image/png" && after.originalURL == metadata.originalURL)
        clock.advance(by: 20)  // 110 s after the store, 20 s after the revalidation: still fresh
        #expect(try await cache.data(forKey: "a") == bytes(50))
        #expect(try await !cache.recordRevalidation(forKey: "missing", http: HTTPCacheMetadata(etag: "x")))
    }

    @Test func blockedURLsSurviveReopeningUntilTheirTimeToLiveEnds() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let gone = try #require(URL(string: "https://example.com/gone.png"))
        let fixed = try #require(URL(string: "https://example.com/fixed.png"))
        let first = try DiskCache(configuration: .testing(root.url, clock: clock))
        let store = try await first.failedURLStore(timeToLive: 60)
        store.recordFailure(gone, error: WebImageError(.invalidDownloadStatusCode, "404"))
        store.recordFailure(fixed, error: WebImageError(.badImageData, "junk"))
        store.recordSuccess(fixed)
        #expect(store.isBlocked(gone) && !store.isBlocked(fixed))
        try await first.close()

        let second = try DiskCache(configuration: .testing(root.url, clock: clock))
        #expect(try await second.statistics().blockedURLs == 1)
        clock.advance(by: 59)
        let reloaded = try await second.failedURLStore(timeToLive: 60)
        #expect(reloaded.isBlocked(gone) && !reloaded.isBlocked(fixed))
        #expect(reloaded.count == 1)
        clock.advance(by: 1)
        #expect(!reloaded.isBlocked(gone))
        reloaded.recordFailure(gone, error: WebImageError(.invalidDownloadStatusCode, "404"))
        #expect(try await second.removeAllBlockedURLs() == 1)
        #expect(try await second.failedURLStore(timeToLive: 60).count == 0)
        try await second.close()
    }

    @Test func statisticsReportTheIndexSize() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(10), forKey: "k")
        let statistics = try await cache.statistics()
        #expect(statistics.bytes == 10)
        #expect(statistics.indexBytes >= fileSize(root.url.appendingPathComponent("index.sqlite")))
        #expect(statistics.indexBytes > 0)
    }
}
