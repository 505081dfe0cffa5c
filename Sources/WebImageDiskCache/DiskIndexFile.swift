import Foundation
import GRDB
import Logging
import WebImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opening the index (`index.sqlite`): the advisory lock that serialises openers, the schema
/// migration, SQLite's quick check, and the recovery of an index that cannot be read.
///
/// An index SQLite reports as corrupt or not a database (on open, while migrating, or by
/// `PRAGMA quick_check`) is moved aside to `index.sqlite.broken` (with its `-wal` and `-shm`) and
/// an empty one is created; the data files it described become orphans that the open-time sweep
/// removes (their keys were only in the index). Any other failure (permissions, a full disk, a
/// missing directory) is not corruption: it is thrown as ``WebImageError/Code/cacheIO`` and the
/// file is left alone.
enum DiskIndexFile {
    static let name = "index.sqlite"
    static let brokenName = "index.sqlite.broken"
    /// The write-ahead log is truncated back to this size whenever it is reset (`journal_size_limit`).
    static let journalSizeLimit = 1 << 20
    /// Pages after which SQLite checkpoints the write-ahead log (4 KiB pages: 1 MiB).
    static let autocheckpointPages = 256

    /// An open index.
    struct Opened {
        var queue: DatabaseQueue
        /// Where an unreadable index was moved, when it was.
        var movedAside: URL?
        /// The index file's inode, to notice the file being deleted or replaced from outside.
        var inode: UInt64?
    }

    /// `PRAGMA quick_check` found damage.
    struct Damage: Error, CustomStringConvertible {
        var report: String
        var description: String { "quick_check: \(report)" }
    }

    /// Opens (creating, migrating, and recovering when unreadable) the index in `directory`.
    /// Processes opening the same directory at once take turns through an advisory lock on
    /// `index.lock`: SQLite's busy handler does not cover switching a new database to WAL, two
    /// migrators could both create the schema, and only one may move a broken index aside.
    static func openIndex(at directory: URL, logger: Logger) throws -> Opened {
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
        let path = directory.appendingPathComponent(name).path
        do {
            return Opened(queue: try openChecked(path), movedAside: nil, inode: inode(of: path))
        } catch let error where isCorruption(error) {
            let aside = try moveAside(in: directory)
            logger.warning(
                "the cache index \(path) could not be read (\(error)); moved it to \(aside.path) and started an empty index")
            do {
                return Opened(queue: try openChecked(path), movedAside: aside, inode: inode(of: path))
            } catch {
                throw WebImageError(.cacheIO, "cannot create a new index in \(directory.path)", underlying: error)
            }
        } catch {
            throw WebImageError(.cacheIO, "cannot open the index in \(directory.path)", underlying: error)
        }
    }

    /// The index's inode, or nil when the file is missing.
    static func inode(of path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    private static func openChecked(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            // auto_vacuum only takes effect in a new file (before the first table); it lets close()
            // give the pages of removed rows back to the filesystem.
            try db.execute(
                sql: """
                    PRAGMA auto_vacuum = INCREMENTAL;
                    PRAGMA synchronous = NORMAL;
                    PRAGMA journal_size_limit = \(journalSizeLimit);
                    PRAGMA wal_autocheckpoint = \(autocheckpointPages);
                    """)
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        do {
            try DiskIndexSchema.migrator().migrate(queue)
            let report = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            guard report == ["ok"] else { throw Damage(report: report.prefix(3).joined(separator: "; ")) }
            return queue
        } catch {
            try? queue.close()
            throw error
        }
    }

    private static func isCorruption(_ error: any Error) -> Bool {
        if error is Damage { return true }
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Renames `index.sqlite` and its `-wal`/`-shm` to `index.sqlite.broken*` (replacing an
    /// older broken copy); returns the new path of the index.
    private static func moveAside(in directory: URL) throws -> URL {
        let broken = directory.appendingPathComponent(brokenName)
        for suffix in ["-wal", "-shm"] { unlink(broken.path + suffix) }
        for suffix in ["", "-wal", "-shm"] {
            let source = directory.appendingPathComponent(name).path + suffix
            if rename(source, broken.path + suffix) != 0, errno != ENOENT {
                throw WebImageError(
                    .cacheIO, "cannot move the unreadable index \(source) aside: \(String(cString: strerror(errno)))")
            }
        }
        return broken
    }
}
