import GRDB

/// The SQLite schema of the disk cache's index.
///
/// One row per entry, keyed by the SHA-256 of the cache key (the data file's name). `access_seq`
/// orders entries for LRU exactly (a counter, so ties between equal timestamps cannot happen);
/// `token` changes on every write so that a reader that saw a stale row deletes only that row.
/// `totals` is kept by triggers, so the size budget is checked in O(1) after each write.
///
/// v2 adds `checksum` (the data file's CRC-32, 4 bytes, checked on every read; rows written
/// before 2026-11-29 hold its SHA-256, 32 bytes, which is still checked; rows written before
/// v2 have none until their first read fills it in) and `blocked_url`, the failed URLs of
/// ``DiskFailedURLStore`` with the time they stay blocked (`blocked_until`, seconds since 1970;
/// NULL: until cleared).
enum DiskIndexSchema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE entry (
                        hash TEXT PRIMARY KEY NOT NULL,
                        key TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        created_at REAL NOT NULL,
                        modified_at REAL NOT NULL,
                        accessed_at REAL NOT NULL,
                        access_seq INTEGER NOT NULL,
                        token INTEGER NOT NULL,
                        url TEXT,
                        content_type TEXT,
                        etag TEXT,
                        last_modified TEXT,
                        cache_control TEXT,
                        expires TEXT,
                        http_date TEXT,
                        age INTEGER,
                        extended BLOB
                    );
                    CREATE INDEX entry_access_seq ON entry(access_seq);
                    CREATE INDEX entry_accessed_at ON entry(accessed_at);
                    CREATE INDEX entry_modified_at ON entry(modified_at);
                    CREATE INDEX entry_created_at ON entry(created_at);
                    CREATE TABLE totals (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        count INTEGER NOT NULL,
                        bytes INTEGER NOT NULL
                    );
                    INSERT INTO totals (id, count, bytes) VALUES (1, 0, 0);
                    CREATE TRIGGER entry_inserted AFTER INSERT ON entry BEGIN
                        UPDATE totals SET count = count + 1, bytes = bytes + NEW.size WHERE id = 1;
                    END;
                    CREATE TRIGGER entry_deleted AFTER DELETE ON entry BEGIN
                        UPDATE totals SET count = count - 1, bytes = bytes - OLD.size WHERE id = 1;
                    END;
                    CREATE TRIGGER entry_resized AFTER UPDATE OF size ON entry BEGIN
                        UPDATE totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 1;
                    END;
                    """)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE entry ADD COLUMN checksum BLOB;
                    CREATE TABLE blocked_url (
                        url TEXT PRIMARY KEY NOT NULL,
                        blocked_at REAL NOT NULL,
                        blocked_until REAL,
                        code TEXT NOT NULL,
                        message TEXT NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
