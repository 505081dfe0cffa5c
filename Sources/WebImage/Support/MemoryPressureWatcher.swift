import Foundation
public import Metrics
import Synchronization

/// Gives memory back when the container runs short, before the kernel's OOM killer does: it reads
/// ``MemoryPressure`` every few seconds and, while the pressure lasts, steps up one level a look —
/// the memory caches trimmed to half, then the caches and the pools emptied, then the allocator's
/// free pages returned to the system (``MemoryReclaim``). A look without pressure starts again at
/// the first step.
///
/// `webimage serve` runs one over its result and source caches; a long-running app can run one over
/// its ``MemoryCache``. Metrics: `webimage_memory_limit_bytes` (the limit seen,
/// ``ContainerMemory``) and `webimage_memory_trims_total` with the step as `step`
/// (`caches_half`, `caches_and_pools`, `allocator`).
///
/// ```swift
/// let watcher = MemoryPressureWatcher(caches: [memoryCache])
/// let task = Task { await watcher.run() }     // until cancelled
/// ```
public final class MemoryPressureWatcher: Sendable {
    /// The steps, in the order they are taken while the pressure lasts.
    public enum Step: String, Sendable, CaseIterable {
        /// The memory caches trimmed to half their cost.
        case cachesHalf = "caches_half"
        /// The memory caches, the frame pool and the pixel pool emptied.
        case cachesAndPools = "caches_and_pools"
        /// The allocator's free pages returned to the system.
        case allocator
    }

    private let caches: [any MemoryTrimming]
    private let pools: [any MemoryTrimming]
    private let interval: Duration
    private let read: @Sendable () -> MemoryPressure?
    private let trims: [Step: Counter]
    private let state = Mutex<(last: MemoryPressure?, next: Int)>((nil, 0))

    /// Watches this process's control group under `root` every `interval`, trimming `caches`
    /// first and `pools` (by default the shared frame and pixel pools) at the second step.
    public init(
        caches: [any MemoryTrimming], pools: [any MemoryTrimming] = [AnimatedFramePool.shared, PixelStoragePool.shared],
        root: String = "/sys/fs/cgroup", membership: String? = nil, interval: Duration = .seconds(2),
        limit: ContainerMemory = .process, metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.caches = caches
        self.pools = pools
        self.interval = interval
        self.read = { MemoryPressure.read(root: root, membership: membership) }
        let factory = metricsFactory ?? MetricsSystem.factory
        Gauge(label: "webimage_memory_limit_bytes", factory: factory).record(limit.limit)
        var trims: [Step: Counter] = [:]
        for step in Step.allCases {
            trims[step] = Counter(label: "webimage_memory_trims_total", dimensions: [("step", step.rawValue)], factory: factory)
        }
        self.trims = trims
    }

    /// Looks once: the step taken, or nil when there is no pressure (or nothing to read). The first
    /// look only takes its bearings from the event counters (PSI alone can still trigger it).
    @discardableResult
    public func check() -> Step? {
        guard let now = read() else { return nil }
        let step: Step? = state.withLock { state in
            let earlier = state.last ?? MemoryPressure(highEvents: now.highEvents, maxEvents: now.maxEvents)
            state.last = now
            guard now.isUnderPressure(since: earlier) else {
                state.next = 0
                return nil
            }
            let step = Step.allCases[min(state.next, Step.allCases.count - 1)]
            state.next += 1
            return step
        }
        guard let step else { return nil }
        switch step {
        case .cachesHalf:
            for cache in caches { cache.trim(keeping: 0.5) }
        case .cachesAndPools:
            for holder in caches + pools { holder.trim(keeping: 0) }
        case .allocator:
            for holder in caches + pools { holder.trim(keeping: 0) }
            MemoryReclaim.trimAllocator()
        }
        trims[step]?.increment()
        return step
    }

    /// Looks every interval until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            check()
            try? await Task.sleep(for: interval)
        }
    }
}
