import Foundation
import WebImageKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads and writes the files a command names, failing with typed errors that name the path and
/// say what is wrong: ``WebImageError/Code/fileUnreadable`` (missing, a directory, no
/// permission), ``WebImageError/Code/fileUnwritable`` (no such directory, read-only, full disk)
/// and ``WebImageError/Code/tooLarge``.
enum LocalFile {
    /// The largest file read: the file loader's limit (100 MB), so that `convert` and `info` take
    /// what `fetch file://…` takes, and `/dev/zero` ends.
    static let maximumBytes = FileImageLoader().maximumBytes

    /// The bytes of the file at `path`.
    static func load(_ path: String, maximumBytes: Int = LocalFile.maximumBytes) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(.fileUnreadable, "cannot read \(path)", errno: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(.fileUnreadable, "cannot read \(path)", errno: errno) }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw WebImageError(.fileUnreadable, "\(path) is a directory, not a file")
        }
        guard Int(status.st_size) <= maximumBytes else {
            throw WebImageError(.tooLarge, "\(path) is \(status.st_size) bytes, over the limit of \(maximumBytes)")
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.fileUnreadable, "cannot read \(path)", errno: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
            // Devices and growing files have no size up front.
            guard data.count <= maximumBytes else {
                throw WebImageError(.tooLarge, "\(path) holds more than the limit of \(maximumBytes) bytes")
            }
        }
    }

    /// Writes `data` to `path` atomically: a temporary file beside it, renamed into place, so a
    /// failed write leaves no partial file.
    static func save(_ data: Data, to path: String) throws {
        if isDirectory(path) { throw WebImageError(.fileUnwritable, "\(path) is a directory, not a file") }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(.fileUnwritable, "cannot write \(path)", errno: errno) }
        var written = 0
        let error: Int32? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        let closed = close(fd) == 0 ? nil : errno
        if let code = error ?? closed {
            unlink(temporary)
            throw failure(.fileUnwritable, "cannot write \(path)", errno: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(.fileUnwritable, "cannot write \(path)", errno: code)
        }
    }

    /// Makes sure `path` is a directory, creating it (and its parents) when missing.
    static func makeDirectory(_ path: String) throws {
        var directory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &directory) {
            guard directory.boolValue else {
                throw WebImageError(.fileUnwritable, "\(path) is a file, not a directory")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw WebImageError(.fileUnwritable, "cannot create the directory \(path): \(error.localizedDescription)")
        }
    }

    /// Whether `path` names an existing directory.
    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    /// An error of `code` whose message ends with the system's reason for `errno`.
    private static func failure(_ code: WebImageError.Code, _ message: String, errno value: Int32) -> WebImageError {
        let reason = String(cString: strerror(value))
        let posix = POSIXErrorCode(rawValue: value).map { POSIXError($0) }
        return WebImageError(code, "\(message): \(reason.prefix(1).lowercased() + reason.dropFirst())", underlying: posix)
    }
}
