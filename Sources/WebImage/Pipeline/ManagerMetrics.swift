import Metrics

/// The manager's swift-metrics instruments, made once (no per-request allocation).
struct ManagerMetrics: Sendable {
    let requests: Counter
    let memoryHits: Counter
    let diskHits: Counter
    let downloads: Counter
    let failures: Counter
    let coalesced: Counter
    let stageTimers: [ImagePipelineEvent.Stage: Metrics.Timer]

    init(prefix: String) {
        requests = Counter(label: "\(prefix)_requests_total")
        memoryHits = Counter(label: "\(prefix)_memory_hits_total")
        diskHits = Counter(label: "\(prefix)_disk_hits_total")
        downloads = Counter(label: "\(prefix)_downloads_total")
        failures = Counter(label: "\(prefix)_failures_total")
        coalesced = Counter(label: "\(prefix)_coalesced_total")
        var timers: [ImagePipelineEvent.Stage: Metrics.Timer] = [:]
        for stage in ImagePipelineEvent.Stage.allCases {
            timers[stage] = Metrics.Timer(label: "\(prefix)_stage_duration", dimensions: [("stage", stage.rawValue)])
        }
        stageTimers = timers
    }
}
