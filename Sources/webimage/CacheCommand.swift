import ArgumentParser
import Foundation
import WebImageKit

/// `webimage cache stats|clean|clear|purge|path`: look after the disk cache.
///
/// Every command names itself: ArgumentParser derives a missing name with `String(describing:)`,
/// whose dynamic casts scan every protocol conformance in the binary at each start.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show, clean, clear or purge the disk cache.",
        subcommands: [Stats.self, Clean.self, Clear.self, Purge.self, Path.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Entry count, total size, and the oldest and newest entries.")

        @Flag(help: "Print one JSON object.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let cache = try global.openDiskCache()
            let stats = try await cache.statistics()
            try? await cache.close()
            let report = CacheStatsReport(directory: cache.configuration.directory.path, statistics: stats, maxSize: cache.configuration.maxSize)
            Terminal.out(json ? jsonLine(report) : report.text + "\n")
        }
    }

    struct Clean: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clean",
            abstract: "Remove expired entries (--max-age) and trim to the size budget (--max-disk-size).")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let cache = try global.openDiskCache()
            await cache.waitUntilOpened()
            let expired = try await cache.sweepExpired()
            let trimmed = try await cache.trimToBudget()
            let leftovers = try await cache.removeLeftovers()
            let stats = try await cache.statistics()
            try? await cache.close()
            if !global.quiet {
                Terminal.out("""
                    removed \(expired) expired, \(trimmed) over the size budget, \(leftovers) stray files; \
                    \(stats.count) entries, \(formatBytes(stats.bytes)) left\n
                    """)
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every entry and forget blocked failed URLs.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let cache = try global.openDiskCache()
            let before = try await cache.statistics()
            try await cache.removeAllData()
            let unblocked = try await cache.removeAllBlockedURLs()
            try? await cache.close()
            if !global.quiet {
                Terminal.out("removed \(before.count) entries, \(formatBytes(before.bytes)), and \(unblocked) blocked URLs\n")
            }
        }
    }

    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Remove a URL's original and every entry made from it (thumbnails, transforms); print the count.")

        @Argument(help: "The URLs, as fetched.")
        var urls: [String]

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            var parsed: [URL] = []
            for text in urls {
                guard let url = URL(string: text), url.scheme != nil else {
                    throw ValidationError("\(text) is not a URL")
                }
                parsed.append(url)
            }
            let cache = try global.openDiskCache()
            var total = 0
            for url in parsed {
                total += try await cache.removeData(forKey: url.absoluteString, orOriginalURL: url)
            }
            try? await cache.close()
            if !global.quiet { Terminal.out("removed \(total) entries\n") }
        }
    }

    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "path", abstract: "Print the cache directory.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            Terminal.out(global.diskConfiguration.directory.path + "\n")
        }
    }
}

/// What `cache stats` prints.
struct CacheStatsReport: Encodable {
    struct Entry: Encodable {
        var key: String
        var url: String?
        var bytes: Int
        var storedAt: String
        var accessedAt: String
    }

    var directory: String
    var entries: Int
    var bytes: Int
    var maxBytes: Int
    /// The index's own bytes (not counted in `bytes` or the budget).
    var indexBytes: Int
    /// Failed URLs blocked across runs.
    var blockedURLs: Int
    var oldest: Entry?
    var newest: Entry?

    init(directory: String, statistics: DiskCacheStatistics, maxSize: Int) {
        self.directory = directory
        entries = statistics.count
        bytes = statistics.bytes
        maxBytes = maxSize
        indexBytes = statistics.indexBytes
        blockedURLs = statistics.blockedURLs
        let formatter = ISO8601DateFormatter()
        func entry(_ entry: DiskCacheStatistics.Entry?) -> Entry? {
            entry.map {
                Entry(key: $0.key, url: $0.url?.absoluteString, bytes: $0.size,
                      storedAt: formatter.string(from: $0.storedAt), accessedAt: formatter.string(from: $0.accessedAt))
            }
        }
        oldest = entry(statistics.oldest)
        newest = entry(statistics.newest)
    }

    var text: String {
        var lines = [
            "directory:  \(directory)",
            "entries:    \(entries)",
            "size:       \(formatBytes(bytes)) of \(formatBytes(maxBytes)) (\(bytes) bytes)",
            "index:      \(formatBytes(indexBytes)) (not counted in size)",
            "blocked:    \(blockedURLs) failed URLs",
        ]
        if let oldest { lines.append("oldest:     \(oldest.storedAt)  \(oldest.url ?? oldest.key)") }
        if let newest { lines.append("newest:     \(newest.storedAt)  \(newest.url ?? newest.key)") }
        return lines.joined(separator: "\n")
    }
}
