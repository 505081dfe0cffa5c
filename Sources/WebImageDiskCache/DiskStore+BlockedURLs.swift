import Foundation
import GRDB
import WebImage

/// The `blocked_url` table: failed URLs that ``DiskFailedURLStore`` keeps across processes.
extension DiskStore {
    /// The URLs blocked now, with the time (seconds since 1970) each stays blocked until
    /// (`infinity`: until cleared); expired rows are deleted first.
    func blockedURLs() throws -> [String: Double] {
        let now = now
        return try writeIndex { db in
            try db.execute(sql: "DELETE FROM blocked_url WHERE blocked_until <= ?", arguments: [now])
            var blocked: [String: Double] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT url, blocked_until FROM blocked_url") {
                blocked[row[0]] = (row[1] as Double?) ?? .infinity
            }
            return blocked
        }
    }

    /// Blocks `url` until `until` (seconds since 1970; `infinity`: until cleared), recording the
    /// error that blocked it.
    func block(url: String, until: Double, error: WebImageError) throws {
        try reopenIfRemoved()
        let now = now
        try writeIndex { db in
            try db.execute(
                sql: """
                    INSERT INTO blocked_url (url, blocked_at, blocked_until, code, message) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(url) DO UPDATE SET blocked_at = excluded.blocked_at,
                    blocked_until = excluded.blocked_until, code = excluded.code, message = excluded.message
                    """, arguments: [url, now, until.isFinite ? until : nil, error.code.rawValue, error.message])
        }
    }

    /// Forgets `url`.
    func unblock(url: String) throws {
        try writeIndex { db in try db.execute(sql: "DELETE FROM blocked_url WHERE url = ?", arguments: [url]) }
    }

    /// Forgets every blocked URL; returns how many there were.
    func unblockAll() throws -> Int {
        try writeIndex { db in
            try db.execute(sql: "DELETE FROM blocked_url")
            return db.changesCount
        }
    }
}
