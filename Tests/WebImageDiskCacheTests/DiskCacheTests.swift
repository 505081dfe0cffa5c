import Crypto
import Foundation
import Testing
import WebImage
import WebImageDiskCache
import WebImageTesting

@Suite("DiskCache")
struct DiskCacheTests {
    @Test func conforms() async {
        let root = TemporaryDirectory()
        let failures = await ImageDataCachingConformance.run {
            try DiskCache(configuration: .testing(root.child(UUID().uuidString)))
        }
        #expect(failures == [])
    }

    @Test func conformsAsTheDataTierOfAnImageCache() async {
        let root = TemporaryDirectory()
        let failures = await ImageCacheConformance.run(holdsImages: false, holdsData: true) {
            ImageCache(data: [try DiskCache(configuration: .testing(root.child(UUID().uuidString)))])
        }
        #expect(failures == [])
    }

    @Test func standardImageCacheConforms() async {
        let root = TemporaryDirectory()
        let failures = await ImageCacheConformance.run(holdsImages: true, holdsData: true) {
            try ImageCache.standard(disk: .testing(root.child(UUID().uuidString)))
        }
        #expect(failures == [])
    }

    @Test func layoutIsDataFileNamedBySHA256PlusSQLiteIndex() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(10), forKey: "https://example.com/a.png")
        let hex = SHA256.hash(data: Data("https://example.com/a.png".utf8)).map { String(format: "%02x", $0) }.joined()
        let file = root.url.appendingPathComponent("data/\(hex)")
        #expect(try Data(contentsOf: file) == bytes(10))
        #expect(FileManager.default.fileExists(atPath: root.url.appendingPathComponent("index.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: root.url.appendingPathComponent("index.sqlite-wal").path))
    }

    @Test func metadataRoundTripsAndCanBeUpdated() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let cache = try DiskCache(configuration: .testing(root.url, clock: clock))
        let metadata = CacheEntryMetadata(
            originalURL: URL(string: "https://example.com/i.jpg"), contentType: "image/jpeg",
            http: HTTPCacheMetadata(etag: "W/\"1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", cacheControl: "no-cache", expires: "0", date: "Tue, 02 Jan 2024 00:00:00 GMT", age: 3),
            extendedData: Data("{\"k\":1}".utf8))
        try await cache.setData(bytes(123), forKey: "k", metadata: metadata)
        let stored = clock.now()
        clock.advance(by: 10)
        let read = try #require(try await cache.entry(forKey: "k"))
        #expect(read.data == bytes(123))
        #expect(read.metadata.originalURL == metadata.originalURL && read.metadata.contentType == "image/jpeg")
        #expect(read.metadata.http == metadata.http && read.metadata.extendedData == metadata.extendedData)
        #expect(read.metadata.byteSize == 123)
        #expect(read.metadata.createdAt == stored && read.metadata.modifiedAt == stored)
        #expect(read.metadata.lastAccessAt == stored.addingTimeInterval(10))

        clock.advance(by: 5)
        try await cache.setData(bytes(50), forKey: "k")  // overwrite: new bytes, metadata cleared, creation kept
        let rewritten = try #require(try await cache.metadata(forKey: "k"))
        #expect(rewritten.createdAt == stored && rewritten.modifiedAt == stored.addingTimeInterval(15))
        #expect(rewritten.http.isEmpty && rewritten.byteSize == 50 && rewritten.originalURL == nil)

        var revalidated = metadata
        revalidated.http.etag = "W/\"2\""
        #expect(try await cache.updateMetadata(revalidated, forKey: "k"))
        #expect(try await cache.metadata(forKey: "k")?.http.etag == "W/\"2\"")
        #expect(try await cache.data(forKey: "k") == bytes(50))
        #expect(try await cache.updateMetadata(revalidated, forKey: "absent") == false)

        let reopened = try DiskCache(configuration: .testing(root.url, clock: clock))
        #expect(try await reopened.metadata(forKey: "k")?.http.etag == "W/\"2\"")
    }

    @Test func evictsLeastRecentlyUsedByIndexNotFileDates() async throws {
        let root = TemporaryDirectory()
        // Every write at the same instant: order must come from the index's counter, not dates.
        let cache = try DiskCache(configuration: .testing(root.url, maxSize: 1000))
        for key in ["a", "b", "c", "d"] { try await cache.setData(bytes(200), forKey: key) }
        _ = try await cache.data(forKey: "a")  // a becomes the most recently used
        try await cache.setData(bytes(300), forKey: "e")  // 1100 > 1000 → trim to 800: b, c go
        #expect(try await cache.containsData(forKey: "a"))
        #expect(try await !cache.containsData(forKey: "b"))
        #expect(try await !cache.containsData(forKey: "c"))
        #expect(try await cache.containsData(forKey: "d"))
        #expect(try await cache.containsData(forKey: "e"))
        #expect(try await cache.totalBytes() == 700)
        #expect(dataFiles(in: root.url) == (3, 700))
    }

    @Test(arguments: [0.5, 0.8, 1.0])
    func sizeBudgetHoldsAfterEveryWrite(trimRatio: Double) async throws {
        let root = TemporaryDirectory()
        var configuration = DiskCacheConfiguration.testing(root.url, maxSize: 20_000)
        configuration.trimRatio = trimRatio
        let cache = try DiskCache(configuration: configuration)
        var largest = 0
        for index in 0..<150 {
            let size = 1 + (index * 7919) % 4000
            largest = max(largest, size)
            try await cache.setData(bytes(size, seed: index), forKey: "k\(index % 60)")
            let files = dataFiles(in: root.url)
            let indexed = try await cache.totalBytes()
            #expect(files.bytes <= 20_000, "write \(index): \(files.bytes) bytes on disk")
            let count = try await cache.count()
            #expect(files.bytes == indexed && files.count == count)
        }
        #expect(largest < 20_000)
    }

    @Test func entriesLargerThanMaxSizeAreNotStored() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url, maxSize: 100))
        try await cache.setData(bytes(50), forKey: "k")
        try await cache.setData(bytes(101), forKey: "k")
        #expect(try await cache.data(forKey: "k") == nil)  // the stale 50 bytes are gone too
        #expect(try await cache.count() == 0 && dataFiles(in: root.url).count == 0)
    }

    @Test(arguments: DiskCacheExpireType.allCases)
    func expiryFollowsTheConfiguredDate(expireType: DiskCacheExpireType) async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let cache = try DiskCache(configuration: .testing(root.url, maxAge: 100, expireType: expireType, clock: clock))
        try await cache.setData(bytes(10), forKey: "k")  // t = 0: created
        clock.advance(by: 60)
        try await cache.setData(bytes(11), forKey: "k")  // t = 60: modified
        clock.advance(by: 30)
        #expect(try await cache.data(forKey: "k") == bytes(11))  // t = 90: accessed
        clock.advance(by: 20)  // t = 110
        let expectedAlive: Bool
        switch expireType {
        case .creationDate: expectedAlive = false  // 110 - 0 ≥ 100
        case .modificationDate, .accessDate: expectedAlive = true
        }
        #expect(try await cache.containsData(forKey: "k") == expectedAlive)
        clock.advance(by: 50)  // t = 160: modified 100 ago, accessed 70 ago
        #expect(try await cache.containsData(forKey: "k") == (expireType == .accessDate))
        clock.advance(by: 30)  // t = 190: accessed 100 ago
        #expect(try await cache.data(forKey: "k") == nil)
        #expect(try await cache.count() == 0)  // the expired read removed it
    }

    @Test func sweepRemovesExpiredEntriesAndTheirFiles() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let cache = try DiskCache(configuration: .testing(root.url, maxAge: 100, clock: clock))
        for index in 0..<2500 where index < 1200 || index % 10 == 0 {
            if index == 1200 { clock.advance(by: 50) }
            try await cache.setData(bytes(8, seed: index), forKey: "k\(index)")
        }
        clock.advance(by: 60)  // the first 1200 are 110 s old; the other 130 are 60 s old
        #expect(try await cache.sweepExpired() == 1200)
        #expect(try await cache.count() == 130)
        #expect(dataFiles(in: root.url).count == 130)
    }

    @Test func expiredEntriesGoOnOpen() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        do {
            let cache = try DiskCache(configuration: .testing(root.url, maxAge: 100, clock: clock))
            for index in 0..<20 { try await cache.setData(bytes(8), forKey: "k\(index)") }
        }
        clock.advance(by: 200)
        let reopened = try DiskCache(configuration: .testing(root.url, maxAge: 100, clock: clock))
        await reopened.waitUntilOpened()
        #expect(try await reopened.count() == 0)
        #expect(dataFiles(in: root.url).count == 0)
    }

    @Test func maxAgeNegativeNeverExpiresAndZeroPurges() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let forever = try DiskCache(configuration: .testing(root.child("forever"), maxAge: -1, clock: clock))
        try await forever.setData(bytes(8), forKey: "k")
        clock.advance(by: 1e9)
        #expect(try await forever.sweepExpired() == 0)
        #expect(try await forever.data(forKey: "k") == bytes(8))

        let zero = try DiskCache(configuration: .testing(root.child("forever"), maxAge: 0, clock: clock))
        #expect(try await zero.sweepExpired() == 1)
        #expect(try await forever.count() == 0)
    }

    @Test func missingOrCorruptDataFileIsAMissThatRemovesTheEntry() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(100), forKey: "truncated")
        try await cache.setData(bytes(100), forKey: "missing")
        try await cache.setData(bytes(100), forKey: "intact")
        let data = root.url.appendingPathComponent("data")
        let truncated = data.appendingPathComponent(hexName("truncated"))
        try bytes(60).write(to: truncated)
        try FileManager.default.removeItem(at: data.appendingPathComponent(hexName("missing")))
        #expect(try await cache.data(forKey: "truncated") == nil)
        #expect(try await cache.data(forKey: "missing") == nil)
        #expect(try await cache.data(forKey: "intact") == bytes(100))
        #expect(try await cache.count() == 1)
        #expect(try await cache.totalBytes() == 100)
        #expect(!FileManager.default.fileExists(atPath: truncated.path))
    }

    @Test func leftoversFromACrashAreRemovedOnOpen() async throws {
        let root = TemporaryDirectory()
        do {
            let cache = try DiskCache(configuration: .testing(root.url))
            try await cache.setData(bytes(10), forKey: "kept")
        }
        let data = root.url.appendingPathComponent("data")
        try bytes(5).write(to: data.appendingPathComponent(hexName("orphan")))  // renamed, never committed
        let staleTemporary = data.appendingPathComponent(".tmp-stale")
        let freshTemporary = data.appendingPathComponent(".tmp-fresh")
        try bytes(5).write(to: staleTemporary)
        try bytes(5).write(to: freshTemporary)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: staleTemporary.path)
        let reopened = try DiskCache(configuration: .testing(root.url))
        await reopened.waitUntilOpened()
        #expect(dataFiles(in: root.url).count == 1)
        #expect(!FileManager.default.fileExists(atPath: staleTemporary.path))
        #expect(FileManager.default.fileExists(atPath: freshTemporary.path))  // may be another process's write
        #expect(try await reopened.data(forKey: "kept") == bytes(10))
    }

    @Test func readOnlyDirectoriesAreSearchedOnAMiss() async throws {
        let root = TemporaryDirectory()
        let shipped = root.child("shipped")
        do {
            let builder = try DiskCache(configuration: .testing(shipped))
            try await builder.setData(bytes(30), forKey: "bundled")
            try await builder.setData(bytes(31), forKey: "shadowed")
        }
        var configuration = DiskCacheConfiguration.testing(root.child("main"))
        configuration.readOnlyDirectories = [root.child("nowhere"), shipped]
        let cache = try DiskCache(configuration: configuration)
        try await cache.setData(bytes(40), forKey: "shadowed")
        #expect(try await cache.data(forKey: "bundled") == bytes(30))
        #expect(try await cache.containsData(forKey: "bundled"))
        #expect(try await cache.data(forKey: "shadowed") == bytes(40))  // own entries first
        #expect(try await cache.count() == 1)  // read-only hits are not copied
        try await cache.removeData(forKey: "bundled")  // cannot remove from a read-only directory
        #expect(try await cache.data(forKey: "bundled") == bytes(30))
        #expect(try await cache.data(forKey: "absent") == nil)
    }

    @Test func migrationMovesEntriesWithMetadataAndRemovesTheOldDirectory() async throws {
        let root = TemporaryDirectory()
        let clock = ManualCacheClock()
        let old = root.child("old")
        do {
            let previous = try DiskCache(configuration: .testing(old, clock: clock))
            for index in 0..<5 {
                try await previous.setData(bytes(20 + index), forKey: "k\(index)", metadata: CacheEntryMetadata(contentType: "image/png"))
                clock.advance(by: 1)
            }
            _ = try await previous.data(forKey: "k0")  // k0 is now the most recently used
            // Closed, as a process that ends does: the access order is written (a loaded machine
            // could otherwise open the new cache before the pending order reached the index).
            try await previous.close()
        }
        var configuration = DiskCacheConfiguration.testing(root.child("new"), maxSize: 20 + 21 + 22 + 23 + 24, clock: clock)
        configuration.migratingFrom = old
        let cache = try DiskCache(configuration: configuration)
        #expect(try await cache.count() == 5)  // migration runs before any other operation
        #expect(try await cache.metadata(forKey: "k3")?.contentType == "image/png")
        #expect(try await cache.metadata(forKey: "k3")?.createdAt == ManualCacheClock().now().addingTimeInterval(3))
        #expect(!FileManager.default.fileExists(atPath: old.path))
        try await cache.setData(bytes(30), forKey: "new")  // over budget: recency survived migration
        #expect(try await cache.containsData(forKey: "k0"))
        #expect(try await !cache.containsData(forKey: "k1"))
        for index in 1..<5 where try await cache.containsData(forKey: "k\(index)") {
            #expect(try await cache.data(forKey: "k\(index)") == bytes(20 + index))
        }
    }

    @Test func defaultDirectoryFollowsXDG() {
        let xdg = DiskCacheConfiguration.defaultDirectory(namespace: "n", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])
        #expect(xdg.path == "/x/cache/webimage/n")
        let home = DiskCacheConfiguration.defaultDirectory(namespace: "n", environment: ["HOME": "/home/u"])
        #expect(home.path == "/home/u/.cache/webimage/n")
        let relative = DiskCacheConfiguration.defaultDirectory(namespace: "n", environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"])
        #expect(relative.path == "/h/.cache/webimage/n")
        let defaults = DiskCacheConfiguration(namespace: "n")
        #expect(defaults.maxAge == 7 * 86_400 && defaults.maxSize == 1 << 30 && defaults.expireType == .modificationDate)
    }

    @Test func manyTasksReadAndWriteAtOnce() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url, maxSize: 200_000))
        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<60 {
                        let key = "k\((worker * 13 + round * 5) % 40)"
                        if round % 2 == 0 {
                            try await cache.setData(KeyDerivedContent.data(forKey: key), forKey: key)
                        } else if let read = try await cache.data(forKey: key), read != KeyDerivedContent.data(forKey: key) {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(wrong == 0)
        let files = dataFiles(in: root.url)
        #expect(files.bytes <= 200_000)
        let (indexedBytes, indexedCount) = (try await cache.totalBytes(), try await cache.count())
        #expect(files.bytes == indexedBytes && files.count == indexedCount)
    }
}
