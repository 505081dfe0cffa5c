import CZlib
import Crypto
import Foundation
import WebImage

/// The data files of a disk cache: `<directory>/data/<sha256-hex-of-key>`, written atomically
/// (temporary file in the same directory, optional `fsync`, `rename`).
///
/// Not synchronised: ``DiskStore`` calls it from its own queue.
struct DiskFiles: Sendable {
    let dataDirectory: URL
    static let temporaryPrefix = ".tmp-"

    init(directory: URL) {
        dataDirectory = directory.appendingPathComponent("data", isDirectory: true)
    }

    /// The file name for `key`: the lowercase hex SHA-256 of its UTF-8 bytes.
    static func fileName(forKey key: String) -> String {
        let digest = SHA256.hash(data: Data(key.utf8))
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The integrity check the index records for a data file's bytes: their CRC-32 (zlib's),
    /// 4 bytes, big-endian. It guards against torn writes and files changed from outside, not
    /// against an attacker (who could as well rewrite the index). Until 2026-11-29 the index
    /// recorded SHA-256, which cost 3.7 % of the service's CPU on cold requests (every 1 MB
    /// original was hashed as it was stored); rows holding one are still checked with it
    /// (``matches(_:checksum:)``).
    static func checksum(_ data: Data) -> Data {
        // zlib gives 0, the CRC of nothing, for a null buffer.
        let crc = data.withUnsafeBytes { raw in
            UInt32(truncatingIfNeeded: crc32_z(0, raw.bindMemory(to: UInt8.self).baseAddress, raw.count))
        }
        return withUnsafeBytes(of: crc.bigEndian) { Data($0) }
    }

    /// Whether `data` matches the `checksum` its row records: a CRC-32 (``checksum(_:)``), or the
    /// SHA-256 that rows written before 2026-11-29 hold.
    static func matches(_ data: Data, checksum recorded: Data) -> Bool {
        switch recorded.count {
        case SHA256.byteCount: Data(SHA256.hash(data: data)) == recorded
        default: checksum(data) == recorded
        }
    }

    func path(_ name: String) -> String { dataDirectory.appendingPathComponent(name).path }

    /// Whether the data directory exists (it may be removed from outside).
    var dataDirectoryExists: Bool {
        var info = stat()
        return stat(dataDirectory.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The size of data file `name`, or nil when it is missing.
    func size(_ name: String) -> Int? {
        var info = stat()
        return stat(path(name), &info) == 0 ? Int(info.st_size) : nil
    }

    func createDirectory() throws {
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw WebImageError(.cacheIO, "cannot create \(dataDirectory.path)", underlying: error)
        }
    }

    /// Writes `data` to a new temporary file next to the data files; returns its path.
    func writeTemporary(_ data: Data, synchronous: Bool) throws -> String {
        let path = path(Self.temporaryPrefix + UUID().uuidString)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.posixError("open", path) }
        var failed: WebImageError?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = Self.posixError("write", path)
                    return
                }
                offset += written
            }
        }
        if failed == nil, synchronous, fsync(fd) != 0 { failed = Self.posixError("fsync", path) }
        if close(fd) != 0, failed == nil { failed = Self.posixError("close", path) }
        if let failed {
            unlink(path)
            throw failed
        }
        return path
    }

    /// Renames a temporary file to the data file `name` (atomic: readers see the old file or the new one).
    func moveIntoPlace(_ temporaryPath: String, as name: String) throws {
        guard rename(temporaryPath, path(name)) == 0 else {
            let error = Self.posixError("rename", temporaryPath)
            unlink(temporaryPath)
            throw error
        }
    }

    /// What reading a data file found.
    enum ReadResult {
        case bytes(Data)
        case missing
        case sizeMismatch(actual: Int)
    }

    /// Reads data file `name`, checking its size against `expectedSize` (nil: any size).
    func read(_ name: String, expectedSize: Int?, in directory: URL? = nil) -> ReadResult {
        let path = directory.map { $0.appendingPathComponent("data").appendingPathComponent(name).path } ?? path(name)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .missing }
        let size = Int(info.st_size)
        if let expectedSize, size != expectedSize { return .sizeMismatch(actual: size) }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < size {
                let count = Foundation.read(fd, raw.baseAddress! + offset, size - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        return complete ? .bytes(data) : .sizeMismatch(actual: -1)
    }

    /// Whether data file `name` exists in a read-only `directory`'s data folder.
    func exists(_ name: String, in directory: URL) -> Bool {
        access(directory.appendingPathComponent("data").appendingPathComponent(name).path, F_OK) == 0
    }

    /// Removes data file `name`; a missing file is not an error.
    func remove(_ name: String) {
        unlink(path(name))
    }

    /// The names in the data directory: data files and temporary files.
    func listNames() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
    }

    /// Removes temporary files last modified before `date` (left by crashed writers; a younger
    /// one may belong to a writer still running in another process).
    func removeTemporaries(olderThan date: Date) -> Int {
        var removed = 0
        for name in listNames() where name.hasPrefix(Self.temporaryPrefix) {
            let path = path(name)
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            guard let modified = attributes?[.modificationDate] as? Date else { continue }
            if modified < date, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    static func posixError(_ call: String, _ path: String) -> WebImageError {
        let code = errno
        return WebImageError(.cacheIO, "\(call) failed for \(path): \(String(cString: strerror(code))) (errno \(code))")
    }
}
