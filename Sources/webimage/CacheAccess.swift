import ArgumentParser
import Foundation
import WebImageKit

/// How a command uses the disk cache.
enum CacheUse: Sendable {
    /// Never opened (`fetch --no-cache`): an unusable cache directory does not matter.
    case none
    /// Used when it can be: an unusable cache is a warning and the command goes on without it
    /// (`fetch`, `info URL`).
    case optional
    /// Needed (`prefetch`, `cache …`): an unusable cache is an error (exit 1).
    case required
}

extension GlobalOptions {
    /// How long a URL that failed permanently stays blocked across runs (`--retry-failed` bypasses).
    static let failedURLTimeToLive: TimeInterval = 3600

    /// Opens the disk cache, or exits with a message when the directory cannot be used. Warns when
    /// an unreadable index had to be moved aside.
    func openDiskCache() throws -> DiskCache {
        let configuration = diskConfiguration
        do {
            return warningAboutRecovery(try DiskCache(configuration: configuration))
        } catch {
            printError("webimage: error: cannot open the cache at \(configuration.directory.path): \(failureMessage(error))")
            throw ExitCode(1)
        }
    }

    /// Opens the disk cache as `use` asks: nil for ``CacheUse/none``, and for
    /// ``CacheUse/optional`` when it cannot be used (after one warning).
    func openDiskCache(_ use: CacheUse) throws -> DiskCache? {
        switch use {
        case .none:
            return nil
        case .required:
            return try openDiskCache()
        case .optional:
            let configuration = diskConfiguration
            do {
                return warningAboutRecovery(try DiskCache(configuration: configuration))
            } catch {
                printError("""
                    webimage: warning: cannot use the cache at \(configuration.directory.path) \
                    (\(failureMessage(error))); going on without caching
                    """)
                return nil
            }
        }
    }

    private func warningAboutRecovery(_ cache: DiskCache) -> DiskCache {
        if let broken = cache.movedAsideIndex {
            printError("""
                webimage: warning: the cache index could not be read; moved it to \(broken.path) \
                and started an empty cache
                """)
        }
        return cache
    }
}
