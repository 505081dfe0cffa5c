import Foundation
import MetricsTestKit
import Testing

@testable import WebImage

/// Memory that fits its container: defaults from the container's limit, and the pressure watcher
/// over a fake cgroup v2 tree whose `memory.events` and `memory.pressure` the tests write.
@Suite struct MemoryPressureTests {
    static let membership = "0::/app\n"

    static func write(_ root: String, high: Int, max: Int = 0, avg10: Double = 0) throws {
        try Data("low 0\nhigh \(high)\nmax \(max)\noom 0\noom_kill 0\n".utf8).write(to: URL(fileURLWithPath: root + "/app/memory.events"))
        let psi = String(format: "some avg10=%.2f avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", avg10)
        try Data(psi.utf8).write(to: URL(fileURLWithPath: root + "/app/memory.pressure"))
    }

    static func image(_ bytes: Int) -> Image {
        Image(pixels: PixelBuffer(width: bytes / 4, height: 1, alphaMode: .straight))
    }

    @Test("the caches' and pools' defaults follow the container's limit, not the host's RAM")
    func defaultsFollowTheContainer() throws {
        let root = try ContainerMemoryTests.tree(["memory.max": "max\n", "app/memory.max": "536870912\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let memory = ContainerMemory.current(root: root, membership: Self.membership, physicalMemory: 64 << 30)
        #expect(memory.limit == 512 << 20)
        // 15 % of 512 MiB, where the host's 64 GiB would have given the 1 GiB cap.
        #expect(MemoryCache.Configuration.defaultTotalCostLimit(for: memory) == (512 << 20) / 100 * 15)
        #expect(MemoryCache.Configuration.defaultTotalCostLimit(for: ContainerMemory(limit: 64 << 30, source: "RAM")) == 1 << 30)
        #expect(MemoryCache.Configuration.defaultTotalCostLimit == MemoryCache.Configuration.defaultTotalCostLimit(for: .process))
        #expect(AnimatedFramePool.defaultBudget == MemoryCache.Configuration.defaultTotalCostLimit / 4)
        #expect(PixelStoragePool.defaultBudget == MemoryCache.Configuration.defaultTotalCostLimit / 8)
    }

    @Test("pressure is read from memory.events and PSI; nothing to read outside cgroup v2")
    func reading() throws {
        let root = try ContainerMemoryTests.tree(["app/memory.max": "max\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.write(root, high: 3, max: 1, avg10: 12.5)
        let reading = try #require(MemoryPressure.read(root: root, membership: Self.membership))
        #expect(reading == MemoryPressure(highEvents: 3, maxEvents: 1, someAverage10: 12.5))
        #expect(reading.isUnderPressure(since: MemoryPressure(highEvents: 3, maxEvents: 1)))  // PSI alone
        #expect(!MemoryPressure(highEvents: 3, maxEvents: 1, someAverage10: 2).isUnderPressure(since: reading))
        #expect(MemoryPressure.read(root: root, membership: "4:memory:/app\n") == nil)
    }

    @Test("under pressure the watcher trims the caches by half, then empties caches and pools, then the allocator; calm starts over")
    func steps() throws {
        let root = try ContainerMemoryTests.tree(["app/memory.max": "max\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cache = MemoryCache(configuration: .init(totalCostLimit: 0, usesWeakCache: false))
        let results = CostLRU<String, Int>(costLimit: 0)
        let pool = PixelStoragePool(budget: 8 << 20)
        func fill() {
            for index in 0..<8 { cache.setImage(Self.image(64 << 10), forKey: "image \(index)") }
            for index in 0..<8 { results.set(index, forKey: "result \(index)", cost: 1000) }
            pool.recycle(PixelBuffer(width: 256, height: 256, alphaMode: .straight))
        }
        fill()
        #expect(pool.statistics.bytesHeld > 0)
        let metrics = TestMetrics()
        let watcher = MemoryPressureWatcher(
            caches: [cache, results], pools: [pool], root: root, membership: Self.membership,
            limit: ContainerMemory(limit: 512 << 20, source: "test"), metricsFactory: metrics)
        #expect(try metrics.expectGauge("webimage_memory_limit_bytes").lastValue == Double(512 << 20))

        try Self.write(root, high: 5)
        #expect(watcher.check() == nil, "the first look only takes its bearings")
        #expect(watcher.check() == nil, "no new event, no stall")
        try Self.write(root, high: 6)
        #expect(watcher.check() == .cachesHalf)
        #expect(cache.count == 4 && results.count == 4 && results.keysByRecency.last == "result 4")
        #expect(pool.statistics.bytesHeld > 0, "the pools wait for the second step")
        try Self.write(root, high: 6, max: 1)
        #expect(watcher.check() == .cachesAndPools)
        #expect(cache.count == 0 && results.count == 0 && pool.statistics.bytesHeld == 0)
        try Self.write(root, high: 6, max: 1, avg10: 30)
        #expect(watcher.check() == .allocator)
        #expect(watcher.check() == .allocator, "a lasting stall stays at the last step")
        try Self.write(root, high: 6, max: 1, avg10: 0.5)
        #expect(watcher.check() == nil)
        fill()
        try Self.write(root, high: 7, max: 1)
        #expect(watcher.check() == .cachesHalf, "calm starts over at the first step")
        #expect(try metrics.expectCounter("webimage_memory_trims_total", [("step", "caches_half")]).totalValue == 2)
        #expect(try metrics.expectCounter("webimage_memory_trims_total", [("step", "caches_and_pools")]).totalValue == 1)
        #expect(try metrics.expectCounter("webimage_memory_trims_total", [("step", "allocator")]).totalValue == 2)
    }

    @Test("a running watcher stops when its task is cancelled")
    func runStops() async throws {
        let root = try ContainerMemoryTests.tree(["app/memory.max": "max\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.write(root, high: 0, avg10: 50)
        let cache = MemoryCache(configuration: .init(totalCostLimit: 0, usesWeakCache: false))
        cache.setImage(Self.image(4096), forKey: "a")
        let watcher = MemoryPressureWatcher(
            caches: [cache], pools: [], root: root, membership: Self.membership, interval: .milliseconds(10))
        let task = Task { await watcher.run() }
        let deadline = ContinuousClock.now + .seconds(60)
        while cache.count > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        await task.value
        #expect(cache.count == 0)
    }
}
