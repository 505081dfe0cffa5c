import Foundation
import GRDB

/// Hits noted by reads and not yet written to the index: reads take no write lock, so their
/// access order (LRU) reaches the index in batches.
struct PendingAccesses {
    /// Hashes in the order they were read (repeats included).
    private(set) var order: [String] = []
    private var latest: [String: Double] = [:]
    /// Checksums computed for rows written before schema v2, by hash: (row token, SHA-256).
    private(set) var checksums: [String: (token: Int64, digest: Data)] = [:]
    /// When the oldest pending hit was noted.
    private(set) var since: ContinuousClock.Instant?

    var isEmpty: Bool { order.isEmpty && checksums.isEmpty }
    var count: Int { order.count }

    mutating func note(_ hash: String, at time: Double) {
        if since == nil { since = .now }
        order.append(hash)
        latest[hash] = max(time, latest[hash] ?? time)
    }

    mutating func backfill(_ hash: String, token: Int64, digest: Data) {
        checksums[hash] = (token, digest)
    }

    /// The last pending access time of `hash`.
    func accessedAt(_ hash: String) -> Double? { latest[hash] }

    /// Each hash once, in the order of its last hit, with that hit's time.
    var lastHits: [(hash: String, time: Double)] {
        var seen = Set<String>()
        var hits: [(String, Double)] = []
        for hash in order.reversed() where seen.insert(hash).inserted { hits.append((hash, latest[hash] ?? 0)) }
        return hits.reversed()
    }

    mutating func removeAll() { self = PendingAccesses() }
}

extension DiskStore {
    /// Notes a hit of `row` (and the checksum of a pre-v2 row); writes the batch when it is due
    /// (``DiskCacheConfiguration/accessBatchSize`` reads, or its oldest hit older than
    /// ``DiskCacheConfiguration/accessBatchInterval``; a timer covers a batch no read follows).
    func noteAccess(_ row: DiskIndexRow, at time: Double, backfilling digest: Data?) throws {
        let first = pending.isEmpty
        pending.note(row.hash, at: time)
        if let digest { pending.backfill(row.hash, token: row.token, digest: digest) }
        let due = pending.since.map { .now - $0 >= configuration.accessBatchInterval } ?? false
        if pending.count >= max(1, configuration.accessBatchSize) || due {
            try flushAccesses()
        } else if first {
            scheduleAccessFlush?()
        }
    }

    /// Writes the pending hits now (one transaction), when there are any and the store is open.
    func flushAccesses() throws {
        guard !pending.isEmpty, !isClosed else { return }
        try writeIndex { _ in }
    }

    /// A write transaction that first applies the pending hits, so that evictions and sweeps see
    /// the reads made before them. The hits are dropped once it commits.
    func writeIndex<T>(_ body: (Database) throws -> T) throws -> T {
        let result = try database.write { db -> T in
            if !pending.isEmpty { try applyPendingAccesses(db) }
            return try body(db)
        }
        pending.removeAll()
        return result
    }

    private func applyPendingAccesses(_ db: Database) throws {
        let touch = try db.makeStatement(
            sql: """
                UPDATE entry SET accessed_at = MAX(accessed_at, ?),
                access_seq = (SELECT IFNULL(MAX(access_seq), 0) + 1 FROM entry) WHERE hash = ?
                """)
        for hit in pending.lastHits { try touch.execute(arguments: [hit.time, hit.hash]) }
        let backfill = try db.makeStatement(
            sql: "UPDATE entry SET checksum = ? WHERE hash = ? AND token = ? AND checksum IS NULL")
        for (hash, value) in pending.checksums { try backfill.execute(arguments: [value.digest, hash, value.token]) }
    }
}
