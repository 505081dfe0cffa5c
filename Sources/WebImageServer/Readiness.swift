import ServiceLifecycle
import Synchronization
import WebImageRedis

/// Whether `/ready` says yes (from the moment the server listens until a graceful shutdown
/// starts) and what it says beside: one line per dependency that can be degraded.
///
/// `/ready` answers `ready` (200) or `not ready` (503) on its first line. With a Redis tier a
/// second line tells its state: `redis: ok`, `redis: unavailable (…)` or `redis: authentication
/// failed (WRONGPASS …)`, the last two followed by `; serving without the shared tier`. A Redis
/// tier that fails does not make the service unready: every node of a fleet shares it, so taking
/// them out of rotation would turn a slower service into none; the line, the log and the
/// `webimage_redis_*` metrics are where it shows.
final class Readiness: Sendable {
    private let state = Mutex(false)
    private let redis: RedisImageCache?

    init(redis: RedisImageCache? = nil) {
        self.redis = redis
    }

    var isReady: Bool { state.withLock { $0 } }
    func set(_ ready: Bool) { state.withLock { $0 = ready } }

    /// The answer of `/ready`: the status and the text.
    func report() -> (isReady: Bool, text: String) {
        let ready = isReady
        var text = ready ? "ready\n" : "not ready\n"
        if let redis { text += "redis: \(Self.describe(redis))\n" }
        return (ready, text)
    }

    static func describe(_ redis: RedisImageCache) -> String {
        let health = redis.health
        switch health {
        case .authenticationFailed, .unavailable:
            return health.summary + "; serving without the shared tier"
        case .available where redis.breaker.state == .open:
            return "unavailable (circuit breaker open); serving without the shared tier"
        case .available, .unknown:
            return health.summary
        }
    }
}

/// Turns `/ready` off as soon as a graceful shutdown starts, then keeps the server serving for
/// the drain delay (it is shut down before the server, which stops accepting only after it).
struct ReadinessService: Service {
    let readiness: Readiness
    let drainDelay: Duration

    func run() async throws {
        try? await gracefulShutdown()
        readiness.set(false)
        if drainDelay > .zero { try? await Task.sleep(for: drainDelay) }
    }
}
