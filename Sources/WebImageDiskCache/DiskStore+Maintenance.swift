import Foundation
import GRDB
import WebImage

/// Expiry sweeps, crash leftovers and migration: work that runs on open and in the background.
extension DiskStore {
    /// Removes up to `limit` expired entries in one short transaction; returns how many went.
    func sweepExpiredBatch(limit: Int) throws -> Int {
        guard configuration.maxAge >= 0 else { return 0 }
        let cutoff = now - configuration.maxAge
        let column = configuration.expireType.column
        return try writeIndex { db in
            let hashes = try String.fetchAll(
                db, sql: "SELECT hash FROM entry WHERE \(column) <= ? LIMIT ?", arguments: [cutoff, limit])
            try delete(hashes, in: db)
            return hashes.count
        }
    }

    /// Removes what a crash can leave: data files with no row, and temporary files older than
    /// `temporaryAge` seconds (younger ones may belong to a writer in another process). Runs under
    /// the index's write lock so no writer is between its rename and its commit.
    func removeLeftovers(temporaryAge: TimeInterval = 3600) throws -> Int {
        try writeIndex { db in
            let indexed = Set(try String.fetchAll(db, sql: "SELECT hash FROM entry"))
            var removed = 0
            for name in files.listNames() where !name.hasPrefix(DiskFiles.temporaryPrefix) && !indexed.contains(name) {
                files.remove(name)
                removed += 1
            }
            return removed + files.removeTemporaries(olderThan: Date().addingTimeInterval(-temporaryAge))
        }
    }

    /// Moves every entry of the WebImage cache at `source` into this one (metadata and dates
    /// kept, least recently used first so recency order survives), then removes `source`.
    /// Entries whose file is missing, of the wrong size or not matching its checksum are dropped.
    /// Returns how many moved.
    func migrate(from source: URL) throws -> Int {
        let fileManager = FileManager.default
        guard source.standardizedFileURL != configuration.directory.standardizedFileURL,
            fileManager.fileExists(atPath: source.appendingPathComponent("index.sqlite").path)
        else { return 0 }
        let sourceFiles = DiskFiles(directory: source)
        var moved = 0
        do {
            let old = try DiskIndexFile.openIndex(at: source, logger: configuration.logger).queue
            let rows = try old.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM entry ORDER BY access_seq").map(DiskIndexRow.init)
            }
            try old.close()
            try reopenIfRemoved()
            for var row in rows {
                guard case .bytes(let data) = sourceFiles.read(row.hash, expectedSize: row.size) else { continue }
                if let recorded = row.checksum, !DiskFiles.matches(data, checksum: recorded) { continue }
                row.checksum = DiskFiles.checksum(data)
                let temporary = try files.writeTemporary(data, synchronous: configuration.synchronousWrites)
                try writeIndex { db in
                    try files.moveIntoPlace(temporary, as: row.hash)
                    try upsert(row, in: db, keepCreationDate: false)
                    try trim(db, keeping: row.hash)
                }
                moved += 1
            }
            try fileManager.removeItem(at: source)
        } catch let error as WebImageError {
            throw error
        } catch {
            throw WebImageError(.cacheIO, "cannot migrate the cache at \(source.path)", underlying: error)
        }
        return moved
    }
}
