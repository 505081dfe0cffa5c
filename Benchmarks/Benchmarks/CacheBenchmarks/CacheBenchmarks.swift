import Benchmark
import CacheBenchmarkSupport
import Foundation
import WebImage

/// package-benchmark suite for the caches: memory hits and misses, disk writes and reads by entry
/// size, and an expiry sweep (10,000 entries here; `webimage-cache-bench sweep` does 100,000).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
        maxDuration: .seconds(5),
        maxIterations: 1_000)

    let (memory, present) = CacheWorkloads.filledMemoryCache(count: 1000)
    let absent = CacheWorkloads.keys(1000, prefix: "https://images.example.com/missing/")
    Benchmark("memory hit (1,000 lookups)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(CacheWorkloads.lookUp(memory, keys: present, lookups: 1)) }
    }
    Benchmark("memory miss (1,000 lookups)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(CacheWorkloads.lookUp(memory, keys: absent, lookups: 1)) }
    }

    for size in [10_000, 100_000, 1_000_000] {
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        Benchmark("disk write+read \(size / 1000) KB (fsync)", configuration: .init(maxIterations: 200)) { benchmark in
            let cache = try CacheWorkloads.makeDiskCache()
            defer { CacheWorkloads.removeDirectory(of: cache) }
            await cache.waitUntilOpened()
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                try await cache.setData(payload, forKey: "k\(iteration)")
                blackHole(try await cache.data(forKey: "k\(iteration)"))
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("expiry sweep of 10,000 entries", configuration: .init(metrics: [.wallClock], maxIterations: 3)) { benchmark in
        let cache = try await CacheWorkloads.cacheWithExpiredEntries(count: 10_000, fresh: 100)
        defer { CacheWorkloads.removeDirectory(of: cache) }
        benchmark.startMeasurement()
        blackHole(try await cache.sweepExpired())
        benchmark.stopMeasurement()
    }
}
