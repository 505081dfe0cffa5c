import Foundation
import Synchronization
import WebImage
import WebImageDiskCache

/// The cache workloads of issue 3, shared by `webimage-cache-bench` (plain figures) and the
/// package-benchmark suite `CacheBenchmarks`.
public enum CacheWorkloads {
    /// Keys shaped like image URLs.
    public static func keys(_ count: Int, prefix: String = "https://images.example.com/photos/") -> [String] {
        (0..<count).map { "\(prefix)\($0)/thumbnail-256.webp" }
    }

    /// A memory cache holding `count` small images under ``keys(_:prefix:)``.
    public static func filledMemoryCache(count: Int) -> (MemoryCache, [String]) {
        let cache = MemoryCache()
        let keys = keys(count)
        let image = Image(pixels: PixelBuffer(width: 16, height: 16, alphaMode: .premultiplied, fill: .white))
        for key in keys { cache.setImage(image, forKey: key) }
        return (cache, keys)
    }

    /// Looks up `lookups` keys round-robin; returns how many hit.
    @inline(never)
    public static func lookUp(_ cache: MemoryCache, keys: [String], lookups: Int, offset: Int = 0) -> Int {
        var hits = 0
        var index = offset % keys.count
        for _ in 0..<lookups {
            if cache.image(forKey: keys[index]) != nil { hits += 1 }
            index += 1
            if index == keys.count { index = 0 }
        }
        return hits
    }

    /// Lookups per second over `threads` threads, each doing `lookupsPerThread`; `hit` chooses
    /// keys that are present or absent.
    public static func memoryThroughput(threads: Int, lookupsPerThread: Int, hit: Bool) -> Double {
        let (cache, present) = filledMemoryCache(count: 1000)
        let keys = hit ? present : Self.keys(1000, prefix: "https://images.example.com/missing/")
        _ = lookUp(cache, keys: keys, lookups: 100_000)  // warm-up
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let hits = lookUp(cache, keys: keys, lookups: lookupsPerThread, offset: thread * 500)
            precondition(hits == (hit ? lookupsPerThread : 0))
        }
        return Double(threads * lookupsPerThread) / seconds(ContinuousClock.now - start)
    }

    /// Lookups per second of a `CostLRU` shaped like `webimage serve`'s results (1,000 entries
    /// of 10 KB under result-like string keys, hashed per lookup as the service does), over
    /// `threads` threads each doing `lookupsPerThread`.
    public static func costLRUThroughput(threads: Int, lookupsPerThread: Int) -> Double {
        let keys = keys(1000, prefix: "result:https://images.example.com/photos/")
        let cache = CostLRU<HashedKey, Data>(costLimit: 192 << 20, entryCostLimit: 48 << 20)
        let payload = Data(count: 10_000)
        for key in keys { cache.set(payload, forKey: key, cost: payload.count + 256) }
        _ = lookUp(cache, keys: keys, lookups: 100_000)  // warm-up
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let hits = lookUp(cache, keys: keys, lookups: lookupsPerThread, offset: thread * 500)
            precondition(hits == lookupsPerThread)
        }
        return Double(threads * lookupsPerThread) / seconds(ContinuousClock.now - start)
    }

    /// Looks up `lookups` keys of a `CostLRU` round-robin; returns how many hit.
    @inline(never)
    public static func lookUp(_ cache: CostLRU<HashedKey, Data>, keys: [String], lookups: Int, offset: Int = 0) -> Int {
        var hits = 0
        var index = offset % keys.count
        for _ in 0..<lookups {
            if cache.value(forKey: keys[index]) != nil { hits += 1 }
            index += 1
            if index == keys.count { index = 0 }
        }
        return hits
    }

    /// A disk cache in a new temporary directory (removed by ``removeDirectory(of:)``).
    public static func makeDiskCache(
        synchronousWrites: Bool = true, maxAge: TimeInterval = 7 * 86_400, clock: any CacheClock = SystemCacheClock()
    ) throws -> DiskCache {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cache-bench-\(UUID().uuidString)")
        return try DiskCache(
            configuration: DiskCacheConfiguration(
                directory: directory, maxAge: maxAge, sweepInterval: nil, synchronousWrites: synchronousWrites, clock: clock))
    }

    /// Removes a benchmark cache's directory.
    public static func removeDirectory(of cache: DiskCache) {
        try? FileManager.default.removeItem(at: cache.configuration.directory)
    }

    /// Writes `count` entries of `size` bytes, then reads them all back; returns (writes/s, reads/s).
    public static func diskWriteRead(size: Int, count: Int, synchronousWrites: Bool) async throws -> (Double, Double) {
        let cache = try makeDiskCache(synchronousWrites: synchronousWrites)
        defer { removeDirectory(of: cache) }
        await cache.waitUntilOpened()
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        let keys = keys(count)
        let writeStart = ContinuousClock.now
        for key in keys { try await cache.setData(payload, forKey: key) }
        let writeSeconds = seconds(ContinuousClock.now - writeStart)
        let readStart = ContinuousClock.now
        for key in keys {
            guard try await cache.data(forKey: key)?.count == size else { fatalError("missed \(key)") }
        }
        let readSeconds = seconds(ContinuousClock.now - readStart)
        return (Double(count) / writeSeconds, Double(count) / readSeconds)
    }

    /// A cache holding `count` expired entries and `fresh` live ones, ready to sweep (remove its
    /// directory with ``removeDirectory(of:)``).
    public static func cacheWithExpiredEntries(count: Int, fresh: Int = 0) async throws -> DiskCache {
        let clock = ManualCacheClock()
        let cache = try makeDiskCache(synchronousWrites: false, maxAge: 3600, clock: clock)
        await cache.waitUntilOpened()
        let payload = Data(repeating: 7, count: 64)
        for key in keys(count) { try await cache.setData(payload, forKey: key) }
        clock.advance(by: 7200)
        for key in keys(fresh, prefix: "https://images.example.com/fresh/") { try await cache.setData(payload, forKey: key) }
        return cache
    }

    /// Fills a cache with `count` expired entries (plus `fresh` live ones), then times one full
    /// sweep; returns (seconds, removed).
    public static func expirySweep(count: Int, fresh: Int = 0) async throws -> (Double, Int) {
        let cache = try await cacheWithExpiredEntries(count: count, fresh: fresh)
        defer { removeDirectory(of: cache) }
        let start = ContinuousClock.now
        let removed = try await cache.sweepExpired()
        let elapsed = seconds(ContinuousClock.now - start)
        let left = try await cache.count()
        precondition(left == fresh, "\(left) entries left, expected \(fresh)")
        return (elapsed, removed)
    }

    /// A duration in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
