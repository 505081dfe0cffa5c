import Crypto
import Foundation
import WebImage
import WebImageDiskCache

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webimage-diskcache-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func child(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: true) }
}

extension DiskCacheConfiguration {
    /// A test configuration: no background sweep timer, no fsync (a process crash is what the
    /// tests simulate; fsync only matters for power loss).
    static func testing(
        _ directory: URL, maxSize: Int = 1 << 30, maxAge: TimeInterval = 7 * 86_400,
        expireType: DiskCacheExpireType = .modificationDate, clock: any CacheClock = ManualCacheClock()
    ) -> DiskCacheConfiguration {
        DiskCacheConfiguration(
            directory: directory, maxAge: maxAge, maxSize: maxSize, expireType: expireType, sweepInterval: nil,
            synchronousWrites: false, clock: clock)
    }
}

/// Bytes of `count` derived from `seed`.
func bytes(_ count: Int, seed: Int = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7) })
}

/// The data files in a cache directory (not temporaries) and their total size.
func dataFiles(in directory: URL) -> (count: Int, bytes: Int) {
    let data = directory.appendingPathComponent("data")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? []
    var count = 0
    var total = 0
    for name in names where !name.hasPrefix(".tmp-") {
        count += 1
        let attributes = try? FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(name).path)
        total += (attributes?[.size] as? Int) ?? 0
    }
    return (count, total)
}

/// The data file name of `key`: the hex SHA-256 of its UTF-8 bytes.
func hexName(_ key: String) -> String {
    SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
}
