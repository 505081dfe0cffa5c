import Foundation
import Logging
import Metrics
import Synchronization
import WebImage

/// What a ``RedisImageCache`` last learned of its server.
public enum RedisTierHealth: Sendable, Hashable {
    /// Nothing has been asked yet.
    case unknown
    /// The last command was answered.
    case available
    /// The server could not be reached or did not answer in time (the message says why).
    case unavailable(String)
    /// The server refused for want of credentials: its error line (`NOAUTH …`, `WRONGPASS …`).
    /// Reads are misses and writes are skipped until it accepts them.
    case authenticationFailed(String)

    /// One line for people: `ok`, `unavailable (…)`, `authentication failed (…)`.
    public var summary: String {
        switch self {
        case .unknown: "not asked yet"
        case .available: "ok"
        case .unavailable(let message): "unavailable (\(message))"
        case .authenticationFailed(let message): "authentication failed (\(message))"
        }
    }
}

/// The reporting side of a ``RedisImageCache``: its health as the last answer left it, the
/// credentials' state (logged when it changes; `<prefix>_auth_failed` 0 or 1 and
/// `<prefix>_auth_failures_total`), and entries rejected by their signature
/// (`<prefix>_rejected_entries_total{reason}`, each logged as a warning, at most
/// ``warningsPerMinute`` a minute so that a flood of bad entries cannot flood the log).
final class RedisTierMonitor: Sendable {
    static let warningsPerMinute = 10

    private let state = Mutex(State())
    private let logger: Logger
    private let address: String
    private let clock: any CacheClock
    private let rejections: [RedisEntrySignature.Rejection: Counter]
    private let authFailed: Gauge
    private let authFailures: Counter
    private let rejectedLabel: String

    private struct State {
        var health = RedisTierHealth.unknown
        var windowStart = Date.distantPast
        var warnings = 0
    }

    init(prefix: String, factory: any MetricsFactory, logger: Logger, address: String, clock: any CacheClock) {
        self.logger = logger
        self.address = address
        self.clock = clock
        let label = "\(prefix)_rejected_entries_total"
        rejectedLabel = label
        rejections = Dictionary(uniqueKeysWithValues: RedisEntrySignature.Rejection.allCases.map { reason in
            (reason, Counter(label: label, dimensions: [("reason", reason.rawValue)], factory: factory))
        })
        authFailed = Gauge(label: "\(prefix)_auth_failed", factory: factory)
        authFailed.record(0)
        authFailures = Counter(label: "\(prefix)_auth_failures_total", factory: factory)
    }

    var health: RedisTierHealth { state.withLock { $0.health } }

    /// A command was answered (an error reply other than for credentials included).
    func answered() {
        let old = state.withLock { state in
            defer { state.health = .available }
            return state.health
        }
        guard case .authenticationFailed = old else { return }
        authFailed.record(0)
        logger.warning("Redis at \(address) accepts the credentials again")
    }

    /// Redis could not be reached or did not answer.
    func unreachable(_ error: WebImageError) {
        state.withLock { $0.health = .unavailable(error.message) }
    }

    /// Redis refused the credentials: counted, and logged as an error when it starts.
    func refusedCredentials(_ error: RedisServerError) {
        authFailures.increment()
        authFailed.record(1)
        let old = state.withLock { state in
            defer { state.health = .authenticationFailed(error.message) }
            return state.health
        }
        if case .authenticationFailed = old { return }
        let cause = error.prefix == "NOAUTH"
            ? "requires a password and none was given"
            : "refused the credentials"
        logger.error(
            """
            Redis at \(address) \(cause) (\(error.message)): serving without the shared tier (reads are misses, \
            writes are skipped) until it accepts them; check the user and password of the Redis URL
            """)
    }

    /// An entry whose signature does not verify: a miss, counted, and logged with its key and reason.
    func rejected(redisKey: String, reason: RedisEntrySignature.Rejection, keyID: String?) {
        rejections[reason]?.increment()
        let now = clock.now()
        let verdict = state.withLock { state -> Int in
            if now.timeIntervalSince(state.windowStart) >= 60 || now < state.windowStart {
                state.windowStart = now
                state.warnings = 0
            }
            state.warnings += 1
            return state.warnings
        }
        let limit = Self.warningsPerMinute
        if verdict <= limit {
            // The id is the writer's text: shown only when it is a well-formed one.
            let id = keyID.map { RedisEntryKey.isValidID($0) ? " (key id `\($0)`)" : " (a malformed key id)" } ?? ""
            logger.warning("ignoring the Redis entry \(redisKey.prefix(512))\(id): \(reason.explanation); treated as a miss")
        }
        if verdict == limit {
            logger.warning("more rejected Redis entries this minute are counted in \(rejectedLabel), not logged")
        }
    }
}
