import Foundation
import GRDB
import WebImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk cache's synchronous engine: the SQLite index plus the data files.
///
/// Ordering invariants (what makes it crash-safe and shareable between processes):
/// - a write puts the bytes in a temporary file (flushed) *before* taking the index's write lock,
///   then renames it into place and commits the row while holding the lock, so writers in any
///   process never see a row and a file from different writes;
/// - evicted and removed files are unlinked while that lock is held;
/// - a reader that finds a file missing, of the wrong size or with the wrong checksum deletes the
///   row only if it is still the row it read (same `token`), under the lock, then unlinks the file;
/// - reads take no write lock: their access order waits in ``pending`` and is applied at the start
///   of the next write transaction (so evictions see it), after 128 reads or 2 s, and on close.
/// A crash leaves at worst a temporary file, an unindexed data file (both swept on open), a row
/// whose file is missing or of another size (a miss), or an access order up to 2 s old: never a
/// row that reads back truncated or as other bytes.
///
/// `@unchecked Sendable`: confined to its ``DiskCache``'s serial queue; never used concurrently
/// (``movedAsideIndex`` is a constant set before the store is shared).
final class DiskStore: @unchecked Sendable {
    let configuration: DiskCacheConfiguration
    let files: DiskFiles
    private(set) var database: DatabaseQueue
    /// The inode of the open index file: another one (or none) means the directory was removed.
    private var indexInode: UInt64?
    /// Where an unreadable index was moved when this store opened, if it was.
    let movedAsideIndex: URL?
    /// Hits not yet written to the index's access order.
    var pending = PendingAccesses()
    /// Called when the first hit of a batch is noted, to flush the batch later.
    var scheduleAccessFlush: (@Sendable () -> Void)?
    private(set) var isClosed = false

    init(configuration: DiskCacheConfiguration) throws {
        self.configuration = configuration
        files = DiskFiles(directory: configuration.directory)
        try files.createDirectory()
        let opened = try DiskIndexFile.openIndex(at: configuration.directory, logger: configuration.logger)
        database = opened.queue
        indexInode = opened.inode
        movedAsideIndex = opened.movedAside
    }

    var indexPath: String { configuration.directory.appendingPathComponent(DiskIndexFile.name).path }

    /// Recreates the directory and the index when they were removed from outside (the open index
    /// would otherwise go on writing to a deleted file, and data files could not be created).
    func reopenIfRemoved() throws {
        let indexReplaced = DiskIndexFile.inode(of: indexPath) != indexInode
        guard indexReplaced || !files.dataDirectoryExists else { return }
        try files.createDirectory()
        guard indexReplaced else { return }
        configuration.logger.warning("the cache index \(indexPath) was removed or replaced; opening it again")
        pending.removeAll()
        try? database.close()
        let opened = try DiskIndexFile.openIndex(at: configuration.directory, logger: configuration.logger)
        database = opened.queue
        indexInode = opened.inode
    }

    /// Applies the pending access order, checkpoints and truncates the write-ahead log, gives
    /// free pages back to the filesystem and closes the index. Later operations throw.
    func close() throws {
        guard !isClosed else { return }
        defer {
            isClosed = true
            scheduleAccessFlush = nil
            try? database.close()
        }
        try flushAccesses()
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA incremental_vacuum")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try database.close()
    }

    var now: Double { configuration.clock.now().timeIntervalSince1970 }

    func isExpired(_ row: DiskIndexRow, now: Double) -> Bool {
        configuration.maxAge >= 0 && row.date(for: configuration.expireType) <= now - configuration.maxAge
    }

    // MARK: Reading

    /// The bytes and metadata for `key`, marking it most recently used; `nil` on a miss.
    func read(key: String) throws -> (data: Data, metadata: CacheEntryMetadata)? {
        let hash = DiskFiles.fileName(forKey: key)
        let now = now
        if var entry = try row(hash: hash) {
            if !isExpired(entry, now: now), case .bytes(let data) = files.read(hash, expectedSize: entry.size) {
                let recorded = entry.checksum
                if recorded.map({ DiskFiles.matches(data, checksum: $0) }) ?? true {
                    try noteAccess(entry, at: now, backfilling: recorded == nil ? DiskFiles.checksum(data) : nil)
                    entry.accessedAt = now
                    return (data, entry.metadata)
                }
                configuration.logger.warning("the cache file of \(key) does not match its checksum; removing it")
            }
            try removeIfUnchanged(entry)
        }
        return readOnly(hash: hash)
    }

    /// `hash`'s row, with any pending access time applied; no write.
    func row(hash: String) throws -> DiskIndexRow? {
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE hash = ?", arguments: [hash]).map(DiskIndexRow.init)
        }
        guard var row else { return nil }
        if let accessed = pending.accessedAt(hash), accessed > row.accessedAt { row.accessedAt = accessed }
        return row
    }

    /// The metadata for `key` without reading its bytes or changing its recency.
    func metadata(key: String) throws -> CacheEntryMetadata? {
        guard let row = try row(hash: DiskFiles.fileName(forKey: key)), !isExpired(row, now: now) else { return nil }
        return row.metadata
    }

    /// Whether `key` has a live row whose data file is there with its recorded size (or a file in
    /// a read-only directory). A row whose file is gone is removed.
    func contains(key: String) throws -> Bool {
        let hash = DiskFiles.fileName(forKey: key)
        if let row = try row(hash: hash), !isExpired(row, now: now) {
            if files.size(hash) == row.size { return true }
            try removeIfUnchanged(row)
        }
        return configuration.readOnlyDirectories.contains { files.exists(hash, in: $0) }
    }

    private func readOnly(hash: String) -> (data: Data, metadata: CacheEntryMetadata)? {
        for directory in configuration.readOnlyDirectories {
            if case .bytes(let data) = files.read(hash, expectedSize: nil, in: directory) {
                return (data, CacheEntryMetadata(byteSize: data.count))
            }
        }
        return nil
    }

    private func removeIfUnchanged(_ entry: DiskIndexRow) throws {
        try writeIndex { db in
            try db.execute(sql: "DELETE FROM entry WHERE hash = ? AND token = ?", arguments: [entry.hash, entry.token])
            if db.changesCount > 0 { files.remove(entry.hash) }
        }
    }

    // MARK: Writing

    /// Stores `data` for `key` atomically, then evicts least recently used entries over budget.
    func write(key: String, data: Data, metadata: CacheEntryMetadata?) throws {
        let hash = DiskFiles.fileName(forKey: key)
        if configuration.maxSize > 0, data.count > configuration.maxSize {
            // Too large to keep; drop any older bytes so they are not served for the new content.
            try remove(key: key)
            return
        }
        try reopenIfRemoved()
        let temporary = try files.writeTemporary(data, synchronous: configuration.synchronousWrites)
        let row = DiskIndexRow(
            hash: hash, key: key, size: data.count, now: now, token: Int64.random(in: .min ... .max),
            checksum: DiskFiles.checksum(data), metadata: metadata)
        do {
            try writeIndex { db in
                try files.moveIntoPlace(temporary, as: hash)
                try upsert(row, in: db, keepCreationDate: true)
                try trim(db, keeping: hash)
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Replaces the metadata of `key`'s entry, keeping its bytes; returns whether it existed.
    func updateMetadata(key: String, metadata: CacheEntryMetadata) throws -> Bool {
        let hash = DiskFiles.fileName(forKey: key)
        let fields = DiskIndexRow(hash: hash, key: key, size: 0, now: 0, token: 0, checksum: nil, metadata: metadata)
        let assignments = DiskIndexRow.metadataColumns.map { "\($0) = ?" }.joined(separator: ", ")
        return try writeIndex { db in
            try db.execute(
                sql: "UPDATE entry SET \(assignments) WHERE hash = ?",
                arguments: StatementArguments(fields.metadataArguments + [hash]))
            return db.changesCount > 0
        }
    }

    /// Merges a 304's headers into `key`'s stored ones and restarts its modification date;
    /// returns whether the entry existed.
    func recordRevalidation(key: String, http: HTTPCacheMetadata) throws -> Bool {
        let hash = DiskFiles.fileName(forKey: key)
        let now = now
        return try writeIndex { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE hash = ?", arguments: [hash])
            else { return false }
            let merged = DiskIndexRow(row: row).metadata.http.updated(with: http)
            try db.execute(
                sql: """
                    UPDATE entry SET etag = ?, last_modified = ?, cache_control = ?, expires = ?, http_date = ?, age = ?,
                    modified_at = ? WHERE hash = ?
                    """,
                arguments: [
                    merged.etag, merged.lastModified, merged.cacheControl, merged.expires, merged.date, merged.age, now,
                    hash,
                ])
            return true
        }
    }

    /// Inserts or replaces a row; the new row becomes the most recently used.
    func upsert(_ row: DiskIndexRow, in db: Database, keepCreationDate: Bool) throws {
        let columns = ["hash", "key", "size", "created_at", "modified_at", "accessed_at", "token", "checksum"]
            + DiskIndexRow.metadataColumns
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let updates = (columns.dropFirst().filter { !keepCreationDate || $0 != "created_at" } + ["access_seq"])
            .map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let arguments: [(any DatabaseValueConvertible)?] =
            [row.hash, row.key, row.size, row.createdAt, row.modifiedAt, row.accessedAt, row.token, row.checksum]
            + row.metadataArguments
        try db.execute(
            sql: """
                INSERT INTO entry (\(columns.joined(separator: ", ")), access_seq)
                VALUES (\(placeholders), (SELECT IFNULL(MAX(access_seq), 0) + 1 FROM entry))
                ON CONFLICT(hash) DO UPDATE SET \(updates)
                """, arguments: StatementArguments(arguments))
    }

    /// Evicts least recently used entries (never `keeping`) down to `maxSize × trimRatio` when
    /// the total exceeds `maxSize`; unlinks their files. Call inside a write transaction.
    @discardableResult
    func trim(_ db: Database, keeping: String?) throws -> Int {
        let maxSize = configuration.maxSize
        guard maxSize > 0, var bytes = try Int.fetchOne(db, sql: "SELECT bytes FROM totals"), bytes > maxSize else {
            return 0
        }
        let target = Int(Double(maxSize) * min(1, max(0, configuration.trimRatio)))
        var victims: [String] = []
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT hash, size FROM entry WHERE hash != ? ORDER BY access_seq", arguments: [keeping ?? ""])
        while bytes > target, let row = try cursor.next() {
            victims.append(row[0])
            bytes -= row[1] as Int
        }
        try delete(victims, in: db)
        return victims.count
    }

    /// Deletes rows by hash and unlinks their files. Call inside a write transaction.
    func delete(_ hashes: [String], in db: Database) throws {
        var start = 0
        while start < hashes.count {
            let chunk = Array(hashes[start..<min(start + 500, hashes.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            try db.execute(sql: "DELETE FROM entry WHERE hash IN (\(marks))", arguments: StatementArguments(chunk))
            for hash in chunk { files.remove(hash) }
            start += chunk.count
        }
    }

    // MARK: Removing and counting

    /// Removes `key`'s entry and file.
    func remove(key: String) throws {
        let hash = DiskFiles.fileName(forKey: key)
        try writeIndex { db in try delete([hash], in: db) }
    }

    /// Removes every entry whose key starts with `prefix`, and its file; returns how many went.
    func remove(keysWithPrefix prefix: String) throws -> Int {
        try remove(where: "substr(key, 1, length(?)) = ?", [prefix, prefix])
    }

    /// Removes the entry of `key` and every entry stored with `url` as its original URL, and
    /// their files; returns how many went.
    func remove(key: String, orOriginalURL url: String) throws -> Int {
        try remove(where: "hash = ? OR url = ?", [DiskFiles.fileName(forKey: key), url])
    }

    /// Removes the entries matching the SQL condition `condition` and their files.
    private func remove(where condition: String, _ arguments: StatementArguments) throws -> Int {
        try writeIndex { db in
            let hashes = try String.fetchAll(db, sql: "SELECT hash FROM entry WHERE " + condition, arguments: arguments)
            try delete(hashes, in: db)
            return hashes.count
        }
    }

    /// Removes every entry and data file.
    func removeAll() throws {
        pending.removeAll()
        try writeIndex { db in
            try db.execute(sql: "DELETE FROM entry")
            for name in files.listNames() where !name.hasPrefix(DiskFiles.temporaryPrefix) { files.remove(name) }
        }
    }

    /// The number of entries and their total bytes, from the trigger-kept totals.
    func totals() throws -> (count: Int, bytes: Int) {
        try database.read(Self.totals)
    }

    /// ``totals()`` inside a transaction already open on `db`.
    static func totals(_ db: Database) throws -> (count: Int, bytes: Int) {
        let row = try Row.fetchOne(db, sql: "SELECT count, bytes FROM totals")
        return (row?[0] ?? 0, row?[1] ?? 0)
    }
}
