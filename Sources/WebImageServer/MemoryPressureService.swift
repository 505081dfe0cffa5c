import ServiceLifecycle
import WebImage

/// Runs a ``WebImage/MemoryPressureWatcher`` over the service's result and source caches for the
/// life of the server: under the container's memory pressure they are trimmed, then emptied with
/// the pools, before the kernel's OOM killer has to act.
struct MemoryPressureService: Service {
    let watcher: MemoryPressureWatcher

    init(service: ImageService) {
        watcher = MemoryPressureWatcher(caches: [service.memory, service.fetcher.memory], metricsFactory: service.metrics.factory)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await watcher.run() }
    }
}
