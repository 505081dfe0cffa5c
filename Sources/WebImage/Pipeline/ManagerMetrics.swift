import Metrics

/// The manager's swift-metrics instruments, made once (no per-request allocation).
struct ManagerMetrics: Sendable {
    let requests: Counter
    let memoryHits: Counter
    let diskHits: Counter
    let downloads: Counter
    let failures: Counter
    let retries: Counter
    let stageTimers: [ImageManager.Event.Stage: Metrics.Timer]

    init(prefix: String, factory: (any MetricsFactory)?) {
        let factory = factory ?? MetricsSystem.factory
        requests = Counter(label: "\(prefix)_requests_total", factory: factory)
        memoryHits = Counter(label: "\(prefix)_memory_hits_total", factory: factory)
        diskHits = Counter(label: "\(prefix)_disk_hits_total", factory: factory)
        downloads = Counter(label: "\(prefix)_downloads_total", factory: factory)
        failures = Counter(label: "\(prefix)_failures_total", factory: factory)
        retries = Counter(label: "\(prefix)_retries_total", factory: factory)
        var timers: [ImageManager.Event.Stage: Metrics.Timer] = [:]
        for stage in ImageManager.Event.Stage.allCases {
            timers[stage] = Metrics.Timer(
                label: "\(prefix)_stage_duration", dimensions: [("stage", stage.rawValue)], factory: factory)
        }
        stageTimers = timers
    }
}
