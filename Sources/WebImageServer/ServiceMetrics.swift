import CoreMetrics
import Prometheus
import Synchronization

/// The service's metrics, through swift-metrics into its own Prometheus registry (so several
/// servers in one process, as in tests, keep separate figures); `/metrics` prints the registry.
///
/// - `webimage_http_requests_total{status}`: answers by status.
/// - `webimage_cache_hits_total{tier}`: `memory`, `disk` (results), `source` (originals on disk);
///   `webimage_cache_misses_total`.
/// - `webimage_stage_duration_seconds{stage}`: `fetch`, `decode`, `transform`, `encode`, `total`.
/// - `webimage_source_bytes_total` (bytes in), `webimage_response_bytes_total` (bytes out).
/// - `webimage_queue_depth`, `webimage_processing`: waiting and running images.
/// - `webimage_origin_requests_total`, `webimage_overload_refusals_total`.
/// - `webimage_failed_source_hits_total`: requests answered from a remembered source failure;
///   `webimage_unrendered_answers_total`: HEAD and `304` answers made from validators alone.
/// - `webimage_cache_write_failures_total`: disk or Redis stores that failed (a full disk);
///   `webimage_disk_cache_unavailable`: 1 when the cache directory could not be opened.
/// - With a Redis tier, its own metrics in the same registry (``WebImageRedis/RedisImageCache``,
///   ``WebImageRedis/RedisCoordinatedLoader``): `webimage_redis_rejected_entries_total{reason}`
///   (entries whose signature failed: misses), `webimage_redis_auth_failed` (1 while Redis refuses
///   the credentials), `webimage_redis_auth_failures_total`, `webimage_redis_breaker_state`,
///   `webimage_redis_unavailable_total`, `webimage_redis_skipped_total` and the lock's counters.
final class ServiceMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    private let statusCounters = Mutex<[Int: CoreMetrics.Counter]>([:])
    let sourceBytes: CoreMetrics.Counter
    let responseBytes: CoreMetrics.Counter
    let originRequests: CoreMetrics.Counter
    let overloadRefusals: CoreMetrics.Counter
    let cacheMisses: CoreMetrics.Counter
    let failedSourceHits: CoreMetrics.Counter
    /// Conditional requests for stale originals.
    let sourceRevalidations: CoreMetrics.Counter
    /// Stale originals answered because their revalidation failed (stale-if-error).
    let staleSourceAnswers: CoreMetrics.Counter
    /// Entries removed by purges (memory, disk and Redis together).
    let purgedEntries: CoreMetrics.Counter
    let unrenderedAnswers: CoreMetrics.Counter
    let cacheWriteFailures: CoreMetrics.Counter
    let diskCacheUnavailable: CoreMetrics.Gauge
    let queueDepth: CoreMetrics.Gauge
    let processing: CoreMetrics.Gauge
    private let hits: [String: CoreMetrics.Counter]
    private let stages: [String: CoreMetrics.Timer]

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
            .seconds(10), .seconds(30),
        ]
        self.factory = factory
        sourceBytes = CoreMetrics.Counter(label: "webimage_source_bytes_total", factory: factory)
        responseBytes = CoreMetrics.Counter(label: "webimage_response_bytes_total", factory: factory)
        originRequests = CoreMetrics.Counter(label: "webimage_origin_requests_total", factory: factory)
        overloadRefusals = CoreMetrics.Counter(label: "webimage_overload_refusals_total", factory: factory)
        cacheMisses = CoreMetrics.Counter(label: "webimage_cache_misses_total", factory: factory)
        failedSourceHits = CoreMetrics.Counter(label: "webimage_failed_source_hits_total", factory: factory)
        sourceRevalidations = CoreMetrics.Counter(label: "webimage_source_revalidations_total", factory: factory)
        staleSourceAnswers = CoreMetrics.Counter(label: "webimage_stale_source_answers_total", factory: factory)
        purgedEntries = CoreMetrics.Counter(label: "webimage_purged_entries_total", factory: factory)
        unrenderedAnswers = CoreMetrics.Counter(label: "webimage_unrendered_answers_total", factory: factory)
        cacheWriteFailures = CoreMetrics.Counter(label: "webimage_cache_write_failures_total", factory: factory)
        diskCacheUnavailable = CoreMetrics.Gauge(label: "webimage_disk_cache_unavailable", factory: factory)
        diskCacheUnavailable.record(0)
        queueDepth = CoreMetrics.Gauge(label: "webimage_queue_depth", factory: factory)
        processing = CoreMetrics.Gauge(label: "webimage_processing", factory: factory)
        hits = Dictionary(uniqueKeysWithValues: ["memory", "disk", "source", "revalidated"].map {
            ($0, CoreMetrics.Counter(label: "webimage_cache_hits_total", dimensions: [("tier", $0)], factory: factory))
        })
        stages = Dictionary(uniqueKeysWithValues: ["fetch", "decode", "transform", "encode", "total"].map {
            ($0, CoreMetrics.Timer(label: "webimage_stage_duration_seconds", dimensions: [("stage", $0)], factory: factory))
        })
    }

    /// Counts one answer with `status`.
    func answered(_ status: Int) {
        let counter = statusCounters.withLock { counters in
            if let counter = counters[status] { return counter }
            let counter = CoreMetrics.Counter(label: "webimage_http_requests_total", dimensions: [("status", String(status))], factory: factory)
            counters[status] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts a cache hit in `tier` (`memory`, `disk`, `source`).
    func hit(_ tier: String) { hits[tier]?.increment() }

    /// Records how long `stage` took.
    func record(_ stage: String, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        stages[stage]?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Runs `body`, recording its duration under `stage` whether it throws or not.
    func measure<T>(_ stage: String, _ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        defer { record(stage, ContinuousClock.now - start) }
        return try await body()
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
