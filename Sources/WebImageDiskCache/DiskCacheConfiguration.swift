public import Foundation
public import Logging
public import WebImage

/// Which recorded date decides that a disk entry has expired (SDWebImage's
/// `SDImageCacheConfigExpireType`). The dates are kept in the cache's index, never read from the
/// filesystem (Linux mounts with `relatime`/`noatime` and keeps no settable creation date).
public enum DiskCacheExpireType: String, Hashable, Sendable, CaseIterable {
    /// The last read or write.
    case accessDate
    /// The last write of the bytes (SDWebImage's default).
    case modificationDate
    /// The first write under this key (kept when the entry is overwritten).
    case creationDate
}

/// Where and how a ``DiskCache`` keeps its entries.
///
/// ```swift
/// var configuration = DiskCacheConfiguration(namespace: "avatars")
/// configuration.maxSize = 200 << 20
/// configuration.maxAge = 3 * 86_400
/// let disk = try DiskCache(configuration: configuration)
/// ```
public struct DiskCacheConfiguration: Sendable {
    /// The cache's directory: `index.sqlite` and `data/<sha256-of-key>` live here.
    public var directory: URL
    /// Seconds an entry lives, measured from the date ``expireType`` names. Default 7 days;
    /// negative: never expire; 0: everything is expired (the next sweep purges the cache).
    public var maxAge: TimeInterval
    /// The most bytes of entries kept; checked after every write. Default 1 GiB; 0 or less: no
    /// limit. An entry larger than this is not stored.
    public var maxSize: Int
    /// When a write takes the cache over ``maxSize``, least recently used entries are removed
    /// until the total is at most `maxSize × trimRatio` (default 0.8; SDWebImage uses 0.5).
    public var trimRatio: Double
    /// Which date ``maxAge`` counts from (default ``DiskCacheExpireType/modificationDate``).
    public var expireType: DiskCacheExpireType
    /// Other cache directories, searched read-only on a miss, in order (SDWebImage's
    /// `additionalCachePathBlock`): each holds files named `data/<sha256-of-key>`, e.g. a cache
    /// built ahead of time and shipped with an application.
    public var readOnlyDirectories: [URL]
    /// An older cache directory whose entries are moved into this one when it opens, after which
    /// the old directory is removed (SDWebImage's disk cache migration).
    public var migratingFrom: URL?
    /// How often expired entries are swept in the background; `nil`: only on open and on demand.
    public var sweepInterval: Duration?
    /// Whether each data file is flushed to stable storage (`fsync`) before it is renamed into
    /// place (default `true`). Without it, a process crash still never exposes a partial file;
    /// a power loss might.
    public var synchronousWrites: Bool
    /// Reads take no write lock: the access order (LRU) they produce is written to the index in
    /// one transaction after this many reads (default 128), after ``accessBatchInterval``, before
    /// any write (so evictions see it) and on ``DiskCache/close()``.
    public var accessBatchSize = 128
    /// The longest a read's access order waits before it is written (default 2 s).
    public var accessBatchInterval = Duration.seconds(2)
    /// Where the cache reads the time for dates and expiry.
    public var clock: any CacheClock
    /// Where the cache logs what it mends: an unreadable index moved aside, a data file that no
    /// longer matches its checksum, a directory removed from outside.
    public var logger: Logger

    /// A configuration for `directory`.
    public init(
        directory: URL,
        maxAge: TimeInterval = 7 * 24 * 3600,
        maxSize: Int = 1 << 30,
        trimRatio: Double = 0.8,
        expireType: DiskCacheExpireType = .modificationDate,
        readOnlyDirectories: [URL] = [],
        migratingFrom: URL? = nil,
        sweepInterval: Duration? = .seconds(3600),
        synchronousWrites: Bool = true,
        clock: any CacheClock = SystemCacheClock(),
        logger: Logger = Logger(label: "WebImage.DiskCache")
    ) {
        self.directory = directory
        self.maxAge = maxAge
        self.maxSize = maxSize
        self.trimRatio = trimRatio
        self.expireType = expireType
        self.readOnlyDirectories = readOnlyDirectories
        self.migratingFrom = migratingFrom
        self.sweepInterval = sweepInterval
        self.synchronousWrites = synchronousWrites
        self.clock = clock
        self.logger = logger
    }

    /// A configuration for the default directory of `namespace` (see ``defaultDirectory(namespace:)``).
    public init(namespace: String) {
        self.init(directory: Self.defaultDirectory(namespace: namespace))
    }

    /// `$XDG_CACHE_HOME/webimage/<namespace>`, else `~/.cache/webimage/<namespace>`.
    public static func defaultDirectory(
        namespace: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("webimage", isDirectory: true)
            .appendingPathComponent(namespace, isDirectory: true)
    }
}
