import Foundation
import WebImage
import WebImageDiskCache
import WebImageTesting

/// A child process for the disk cache's crash and two-process tests.
///
///     webimage-cache-stress <directory> <first> <end> [--reverse] [--max-size BYTES] [--wait-for-go] [--verify-reads] [--no-fsync]
///
/// Writes entries `entry-<first>` … `entry-<end - 1>` with ``KeyDerivedContent``, printing
/// `stored <i>` after each write has returned (so the parent knows it is committed). With
/// `--wait-for-go` it prints `ready` once the cache is open and waits for a line on stdin.
/// With `--verify-reads` it reads an earlier key after every write and exits with status 3 if
/// the bytes differ from the key's content. `--no-fsync` turns off
/// ``DiskCacheConfiguration/synchronousWrites``. Exits 0 when done, 2 on a usage error, 1 on a
/// cache error.
@main
struct StressCommand {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func flag(_ name: String) -> Bool {
            guard let index = arguments.firstIndex(of: name) else { return false }
            arguments.remove(at: index)
            return true
        }
        func option(_ name: String) -> Int? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            let value = Int(arguments[index + 1])
            arguments.removeSubrange(index...index + 1)
            return value
        }
        let reverse = flag("--reverse")
        let waitForGo = flag("--wait-for-go")
        let verifyReads = flag("--verify-reads")
        let noFsync = flag("--no-fsync")
        let maxSize = option("--max-size") ?? (1 << 30)
        guard arguments.count == 3, let first = Int(arguments[1]), let end = Int(arguments[2]), first <= end else {
            say("usage: webimage-cache-stress <directory> <first> <end> [--reverse] [--max-size BYTES] [--wait-for-go] [--verify-reads] [--no-fsync]")
            exit(2)
        }
        let configuration = DiskCacheConfiguration(
            directory: URL(fileURLWithPath: arguments[0], isDirectory: true), maxSize: maxSize, sweepInterval: nil,
            synchronousWrites: !noFsync)
        do {
            let cache = try DiskCache(configuration: configuration)
            if waitForGo {
                say("ready")
                _ = readLine()
            }
            let indices = reverse ? Array((first..<end).reversed()) : Array(first..<end)
            for (position, index) in indices.enumerated() {
                let key = "entry-\(index)"
                try await cache.setData(KeyDerivedContent.data(forKey: key), forKey: key)
                say("stored \(index)")
                if verifyReads {
                    let earlier = "entry-\(indices[(position * 7919) % (position + 1)])"
                    if let read = try await cache.data(forKey: earlier), read != KeyDerivedContent.data(forKey: earlier) {
                        say("corrupt \(earlier)")
                        exit(3)
                    }
                }
            }
            say("done")
            exit(0)
        } catch {
            say("error \(error)")
            exit(1)
        }
    }

    /// Writes a line to stdout unbuffered, so the parent sees it before anything later happens.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
