import Crypto
import Foundation
import GRDB
import Testing
import WebImage
import WebImageDiskCache

/// The disk cache under faults: an unreadable index, data files changed behind its back, a
/// directory removed from outside.
@Suite("DiskCache faults")
struct DiskCacheFaultTests {
    enum IndexDamage: String, CaseIterable, Sendable {
        case garbage, truncated, zeroedPages
    }

    /// A closed cache of 300 entries whose index is then damaged.
    private func damagedCache(_ damage: IndexDamage, in root: TemporaryDirectory) async throws {
        let cache = try DiskCache(configuration: .testing(root.url))
        for index in 0..<300 { try await cache.setData(bytes(64, seed: index), forKey: "https://example.com/\(index).png") }
        try await cache.close()
        let index = root.url.appendingPathComponent("index.sqlite")
        var contents = try Data(contentsOf: index)
        #expect(contents.count > 16 * 4096)
        switch damage {
        case .garbage: contents = Data(repeating: 0x5A, count: contents.count)
        case .truncated: contents = contents.prefix(contents.count / 2)
        case .zeroedPages: contents.replaceSubrange(4096..<(12 * 4096), with: Data(count: 11 * 4096))
        }
        try contents.write(to: index)
    }

    @Test(arguments: IndexDamage.allCases)
    func anUnreadableIndexIsMovedAsideAndAnEmptyOneStarted(damage: IndexDamage) async throws {
        let root = TemporaryDirectory()
        try await damagedCache(damage, in: root)

        let cache = try DiskCache(configuration: .testing(root.url))
        await cache.waitUntilOpened()
        let broken = root.url.appendingPathComponent("index.sqlite.broken")
        #expect(cache.movedAsideIndex?.standardizedFileURL == broken.standardizedFileURL)
        #expect(FileManager.default.fileExists(atPath: broken.path))
        #expect(try await cache.count() == 0)
        #expect(dataFiles(in: root.url).count == 0)  // orphans of the lost index
        try await cache.setData(bytes(10), forKey: "after")
        #expect(try await cache.data(forKey: "after") == bytes(10))
        try await cache.removeAllData()
        try await cache.close()

        let reopened = try DiskCache(configuration: .testing(root.url))
        #expect(reopened.movedAsideIndex == nil)
        try await reopened.close()
    }

    @Test func aSoundIndexIsNotMovedAside() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(10), forKey: "k")
        try await cache.close()
        let reopened = try DiskCache(configuration: .testing(root.url))
        #expect(reopened.movedAsideIndex == nil)
        #expect(try await reopened.data(forKey: "k") == bytes(10))
        #expect(!FileManager.default.fileExists(atPath: root.url.appendingPathComponent("index.sqlite.broken").path))
    }

    @Test func aDirectoryThatCannotBeCreatedIsATypedError() throws {
        let root = TemporaryDirectory()
        let file = root.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        do {
            _ = try DiskCache(configuration: .testing(file.appendingPathComponent("cache")))
            Issue.record("a cache opened under a regular file")
        } catch let error as WebImageError {
            #expect(error.code == .cacheIO)
        }
    }

    @Test func aDataFileReplacedByOtherBytesOfTheSameSizeIsAMissThatRemovesTheEntry() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(100, seed: 1), forKey: "swapped")
        try await cache.setData(bytes(100, seed: 2), forKey: "intact")
        let file = root.url.appendingPathComponent("data").appendingPathComponent(hexName("swapped"))
        try bytes(100, seed: 3).write(to: file)
        #expect(try await cache.data(forKey: "swapped") == nil)
        #expect(try await cache.data(forKey: "intact") == bytes(100, seed: 2))
        #expect(try await cache.count() == 1)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func anIndexWithoutChecksumsIsMigratedAndItsEntriesGetOneOnFirstRead() async throws {
        let root = TemporaryDirectory()
        try writeVersion1Index(in: root.url, key: "old", data: bytes(80, seed: 4))

        let cache = try DiskCache(configuration: .testing(root.url))
        #expect(try await cache.data(forKey: "old") == bytes(80, seed: 4))  // no checksum yet: trusted once
        try await cache.close()
        let file = root.url.appendingPathComponent("data").appendingPathComponent(hexName("old"))
        try bytes(80, seed: 5).write(to: file)

        let reopened = try DiskCache(configuration: .testing(root.url))
        #expect(try await reopened.data(forKey: "old") == nil)
        #expect(try await reopened.count() == 0)
    }

    @Test func entriesRecordACRC32AndRowsWithTheOldSHA256AreStillChecked() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(300, seed: 6), forKey: "new")
        try await cache.setData(bytes(300, seed: 7), forKey: "old")
        try await cache.close()
        let index = root.url.appendingPathComponent("index.sqlite").path
        let queue = try DatabaseQueue(path: index)
        let recorded = try await queue.read { db in
            try Data.fetchOne(db, sql: "SELECT checksum FROM entry WHERE key = 'new'")
        }
        // zlib's CRC-32 of the bytes, big-endian.
        #expect(recorded == Self.crc32(bytes(300, seed: 6)))
        // A row as earlier versions wrote it: the SHA-256 of the bytes.
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE entry SET checksum = ? WHERE key = 'old'",
                arguments: [Data(SHA256.hash(data: bytes(300, seed: 7)))])
        }
        try queue.close()

        let reopened = try DiskCache(configuration: .testing(root.url))
        #expect(try await reopened.data(forKey: "old") == bytes(300, seed: 7))
        #expect(try await reopened.data(forKey: "new") == bytes(300, seed: 6))
        try await reopened.close()
        for (key, seed) in [("old", 8), ("new", 9)] {
            let file = root.url.appendingPathComponent("data").appendingPathComponent(hexName(key))
            try bytes(300, seed: seed).write(to: file)
        }
        let corrupted = try DiskCache(configuration: .testing(root.url))
        #expect(try await corrupted.data(forKey: "old") == nil)
        #expect(try await corrupted.data(forKey: "new") == nil)
        #expect(try await corrupted.count() == 0)
    }

    /// The CRC-32 (ISO-HDLC, zlib's) of `data`, big-endian, computed bit by bit.
    private static func crc32(_ data: Data) -> Data {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return withUnsafeBytes(of: (~crc).bigEndian) { Data($0) }
    }

    @Test func aDirectoryRemovedFromOutsideIsRecreatedByTheNextStore() async throws {
        let root = TemporaryDirectory()
        let directory = root.child("cache")
        let cache = try DiskCache(configuration: .testing(directory))
        try await cache.setData(bytes(10), forKey: "before")
        try FileManager.default.removeItem(at: directory)

        #expect(try await !cache.containsData(forKey: "before"))
        #expect(try await cache.data(forKey: "before") == nil)
        try await cache.setData(bytes(20), forKey: "after")
        #expect(try await cache.data(forKey: "after") == bytes(20))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.sqlite").path))
        try await cache.close()

        let reopened = try DiskCache(configuration: .testing(directory))  // the new index is on disk
        #expect(try await reopened.data(forKey: "after") == bytes(20))
        #expect(try await reopened.count() == 1)
    }

    @Test func containsIsFalseOnceTheDataFileIsGone() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        try await cache.setData(bytes(10), forKey: "gone")
        try FileManager.default.removeItem(
            at: root.url.appendingPathComponent("data").appendingPathComponent(hexName("gone")))
        #expect(try await ImageCache(data: [cache]).contains(forKey: "gone", cacheType: .all) == .none)
        #expect(try await cache.count() == 0)
    }

    /// An index as WebImage wrote it before checksums (schema v1), holding one entry.
    private func writeVersion1Index(in directory: URL, key: String, data: Data) throws {
        let dataDirectory = directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try data.write(to: dataDirectory.appendingPathComponent(hexName(key)))
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("index.sqlite").path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1');
                    CREATE TABLE entry (
                        hash TEXT PRIMARY KEY NOT NULL, key TEXT NOT NULL, size INTEGER NOT NULL,
                        created_at REAL NOT NULL, modified_at REAL NOT NULL, accessed_at REAL NOT NULL,
                        access_seq INTEGER NOT NULL, token INTEGER NOT NULL, url TEXT, content_type TEXT, etag TEXT,
                        last_modified TEXT, cache_control TEXT, expires TEXT, http_date TEXT, age INTEGER, extended BLOB);
                    CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL, bytes INTEGER NOT NULL);
                    INSERT INTO totals VALUES (1, 0, 0);
                    CREATE TRIGGER entry_inserted AFTER INSERT ON entry BEGIN
                        UPDATE totals SET count = count + 1, bytes = bytes + NEW.size WHERE id = 1;
                    END;
                    CREATE TRIGGER entry_deleted AFTER DELETE ON entry BEGIN
                        UPDATE totals SET count = count - 1, bytes = bytes - OLD.size WHERE id = 1;
                    END;
                    INSERT INTO entry (hash, key, size, created_at, modified_at, accessed_at, access_seq, token)
                    VALUES (?, ?, ?, 1767225600, 1767225600, 1767225600, 1, 7);
                    """, arguments: [hexName(key), key, data.count])
        }
        try queue.close()
    }
}
