public import Foundation
import GRDB

/// What a disk cache holds: totals and its oldest and newest entries (`webimage cache stats`).
public struct DiskCacheStatistics: Sendable, Hashable {
    /// One entry as the index records it.
    public struct Entry: Sendable, Hashable {
        /// The cache key.
        public var key: String
        /// The URL the bytes came from, when recorded.
        public var url: URL?
        /// Bytes on disk.
        public var size: Int
        /// When the entry was first stored.
        public var storedAt: Date
        /// When the entry was last read or written.
        public var accessedAt: Date
    }

    /// Number of entries.
    public var count: Int
    /// Total bytes of all entries.
    public var bytes: Int
    /// The entry stored longest ago, if any.
    public var oldest: Entry?
    /// The entry stored most recently, if any.
    public var newest: Entry?
    /// Bytes of the index (`index.sqlite` and its write-ahead log and shared-memory files): not
    /// part of ``bytes`` or of the size budget. About 60 KB for an empty index plus roughly
    /// 450 bytes per entry with 40-character URL keys (measured: 508 KB for 1,000 entries); the
    /// write-ahead log adds at most about 1 MiB while the cache is open and nothing once closed.
    public var indexBytes: Int = 0
    /// URLs blocked by a ``DiskFailedURLStore`` on this cache, expired ones included.
    public var blockedURLs: Int = 0
}

extension DiskStore {
    /// Totals plus the oldest and newest entries by store date, from one read transaction.
    func statistics() throws -> DiskCacheStatistics {
        try flushAccesses()
        var statistics = try database.read { db in
            let (count, bytes) = try Self.totals(db)
            func entry(_ order: String) throws -> DiskCacheStatistics.Entry? {
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry ORDER BY created_at \(order), access_seq \(order) LIMIT 1")
                else { return nil }
                let index = DiskIndexRow(row: row)
                return DiskCacheStatistics.Entry(
                    key: index.key, url: index.url.flatMap(URL.init(string:)), size: index.size,
                    storedAt: Date(timeIntervalSince1970: index.createdAt),
                    accessedAt: Date(timeIntervalSince1970: index.accessedAt))
            }
            var result = DiskCacheStatistics(
                count: count, bytes: bytes, oldest: try entry("ASC"), newest: try entry("DESC"))
            result.blockedURLs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blocked_url") ?? 0
            return result
        }
        statistics.indexBytes = ["", "-wal", "-shm"].reduce(0) { total, suffix in
            var info = stat()
            return total + (stat(indexPath + suffix, &info) == 0 ? Int(info.st_size) : 0)
        }
        return statistics
    }

    /// Evicts least recently used entries until the size budget holds; returns how many went.
    func trimToBudget() throws -> Int {
        try writeIndex { db in try trim(db, keeping: nil) }
    }
}
