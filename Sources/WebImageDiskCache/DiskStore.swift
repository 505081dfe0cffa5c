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
/// - a reader that finds a file missing or of the wrong size deletes the row only if it is still
///   the row it read (same `token`), under the lock, then unlinks the file.
/// A crash leaves at worst a temporary file, an unindexed data file (both swept on open) or a
/// row whose file is missing or of another size (a miss): never a row that reads back truncated.
///
/// `@unchecked Sendable`: confined to its ``DiskCache``'s serial queue; never used concurrently.
final class DiskStore: @unchecked Sendable {
    let configuration: DiskCacheConfiguration
    let files: DiskFiles
    let database: DatabaseQueue

    init(configuration: DiskCacheConfiguration) throws {
        self.configuration = configuration
        files = DiskFiles(directory: configuration.directory)
        try files.createDirectory()
        database = try Self.openIndex(at: configuration.directory)
    }

    /// Opens (creating and migrating when new) the index in `directory`. Processes opening the
    /// same directory at once take turns through an advisory lock on `index.lock`: SQLite's busy
    /// handler does not cover switching a new database to WAL, and two migrators could both
    /// create the schema.
    static func openIndex(at directory: URL) throws -> DatabaseQueue {
        let lockPath = directory.appendingPathComponent("index.lock").path
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw WebImageError(.cacheIO, "cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw WebImageError(.cacheIO, "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(lock, LOCK_UN) }
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(30)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        do {
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("index.sqlite").path, configuration: config)
            try DiskIndexSchema.migrator().migrate(queue)
            return queue
        } catch {
            throw WebImageError(.cacheIO, "cannot open the index in \(directory.path)", underlying: error)
        }
    }

    var now: Double { configuration.clock.now().timeIntervalSince1970 }

    func isExpired(_ row: DiskIndexRow, now: Double) -> Bool {
        configuration.maxAge >= 0 && row.date(for: configuration.expireType) <= now - configuration.maxAge
    }

    // MARK: Reading

    private enum Lookup {
        case absent
        case expired(DiskIndexRow)
        case found(DiskIndexRow)
    }

    /// The bytes and metadata for `key`, marking it most recently used; `nil` on a miss.
    func read(key: String) throws -> (data: Data, metadata: CacheEntryMetadata)? {
        let hash = DiskFiles.fileName(forKey: key)
        let now = now
        let lookup: Lookup = try database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE hash = ?", arguments: [hash])
            else { return .absent }
            var entry = DiskIndexRow(row: row)
            if isExpired(entry, now: now) { return .expired(entry) }
            try db.execute(
                sql: """
                    UPDATE entry SET accessed_at = ?, access_seq = (SELECT IFNULL(MAX(access_seq), 0) + 1 FROM entry)
                    WHERE hash = ?
                    """, arguments: [now, hash])
            entry.accessedAt = now
            return .found(entry)
        }
        switch lookup {
        case .found(let entry):
            if case .bytes(let data) = files.read(hash, expectedSize: entry.size) { return (data, entry.metadata) }
            try removeIfUnchanged(entry)
        case .expired(let entry):
            try removeIfUnchanged(entry)
        case .absent:
            break
        }
        return readOnly(hash: hash)
    }

    /// The metadata for `key` without reading its bytes or changing its recency.
    func metadata(key: String) throws -> CacheEntryMetadata? {
        let hash = DiskFiles.fileName(forKey: key)
        let row = try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM entry WHERE hash = ?", arguments: [hash]).map(DiskIndexRow.init)
        }
        guard let row, !isExpired(row, now: now) else { return nil }
        return row.metadata
    }

    /// Whether `key` has a live row (or a file in a read-only directory).
    func contains(key: String) throws -> Bool {
        let hash = DiskFiles.fileName(forKey: key)
        if try metadata(key: key) != nil { return true }
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
        try database.write { db in
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
        let temporary = try files.writeTemporary(data, synchronous: configuration.synchronousWrites)
        let row = DiskIndexRow(
            hash: hash, key: key, size: data.count, now: now, token: Int64.random(in: .min ... .max), metadata: metadata)
        do {
            try database.write { db in
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
        let fields = DiskIndexRow(hash: hash, key: key, size: 0, now: 0, token: 0, metadata: metadata)
        let assignments = DiskIndexRow.metadataColumns.map { "\($0) = ?" }.joined(separator: ", ")
        return try database.write { db in
            try db.execute(
                sql: "UPDATE entry SET \(assignments) WHERE hash = ?",
                arguments: StatementArguments(fields.metadataArguments + [hash]))
            return db.changesCount > 0
        }
    }

    /// Inserts or replaces a row; the new row becomes the most recently used.
    func upsert(_ row: DiskIndexRow, in db: Database, keepCreationDate: Bool) throws {
        let columns = ["hash", "key", "size", "created_at", "modified_at", "accessed_at", "token"]
            + DiskIndexRow.metadataColumns
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let updates = (columns.dropFirst().filter { !keepCreationDate || $0 != "created_at" } + ["access_seq"])
            .map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let arguments: [(any DatabaseValueConvertible)?] =
            [row.hash, row.key, row.size, row.createdAt, row.modifiedAt, row.accessedAt, row.token]
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
        try database.write { db in try delete([hash], in: db) }
    }

    /// Removes every entry and data file.
    func removeAll() throws {
        try database.write { db in
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
