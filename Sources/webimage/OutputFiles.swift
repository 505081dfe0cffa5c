import Foundation
import Synchronization
import WebImageKit

/// Names and writes `fetch`'s output files: one per URL, named after the URL's last path
/// component with the written format's extension, made unique (`name-1.png`, …) so that no
/// existing file and no other URL of the run is overwritten.
final class OutputFiles: Sendable {
    /// The directory as the user gave it (reported paths start with it).
    let directory: String
    private let reserved = Mutex<Set<String>>([])

    init(directory: String) {
        self.directory = directory
    }

    /// The base file name for `url` holding `format`: `cat.png`, `photo.jpg`, `image.webp`.
    static func fileName(for url: URL?, format: ImageFormat) -> String {
        var name = url.flatMap { $0.scheme?.lowercased() == "data" ? nil : $0.lastPathComponent } ?? ""
        name = name.replacingOccurrences(of: "/", with: "_")
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = "image" }
        let ext = (name as NSString).pathExtension
        if !ext.isEmpty, let named = ImageFormat(fileExtension: ext) {
            if named == format || (named == .png && format == .apng) { return name }
            name = (name as NSString).deletingPathExtension
        }
        return name + "." + format.fileExtension
    }

    /// Writes `data` atomically under a unique name for `url`; returns the path written
    /// (relative when the directory was given relative). A failed write is a
    /// ``WebImageError/Code/fileUnwritable`` naming the path.
    func write(_ data: Data, for url: URL?, format: ImageFormat) throws -> String {
        let path = reserve(Self.fileName(for: url, format: format))
        do {
            try LocalFile.save(data, to: path)
        } catch {
            release(path)
            throw error
        }
        return path
    }

    private func reserve(_ name: String) -> String {
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        return reserved.withLock { reserved in
            var attempt = 0
            while true {
                let candidate = attempt == 0 ? name : "\(base)-\(attempt)" + (ext.isEmpty ? "" : ".\(ext)")
                let path = directory == "." ? candidate : (directory as NSString).appendingPathComponent(candidate)
                if !reserved.contains(path), !FileManager.default.fileExists(atPath: path) {
                    reserved.insert(path)
                    return path
                }
                attempt += 1
            }
        }
    }

    private func release(_ path: String) {
        _ = reserved.withLock { $0.remove(path) }
    }
}
