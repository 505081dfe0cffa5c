public import Logging
import Synchronization

/// Log records a test keeps, in order: ``logger(label:level:)`` makes a `Logger` whose handler
/// appends every record here.
///
/// ```swift
/// let log = CapturedLog()
/// let cache = RedisImageCache(client: client, keys: keys, logger: log.logger(level: .debug))
/// #expect(log.messages(at: .warning).contains { $0.contains("answers again") })
/// ```
public final class CapturedLog: Sendable {
    private let records = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])

    public init() {}

    /// A logger writing here, at `level` and above.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(sink: self) }
        logger.logLevel = level
        return logger
    }

    /// Every message, in order.
    public var messages: [String] { records.withLock { $0.map(\.message) } }

    /// The messages at `level`.
    public func messages(at level: Logger.Level) -> [String] { records.withLock { $0.filter { $0.level == level }.map(\.message) } }

    /// Every record as `message key=value …`, its metadata sorted by key.
    public var lines: [String] {
        records.withLock { records in
            records.map { record in
                let fields = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                return ([record.message] + fields).joined(separator: " ")
            }
        }
    }

    private struct Handler: LogHandler {
        let sink: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.records.withLock { $0.append((event.level, event.message.description, merged)) }
        }
    }
}
