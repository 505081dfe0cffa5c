import Foundation
import Testing
import WebImage
import WebImageTesting

@Suite("MemoryCache")
struct MemoryCacheTests {
    /// A still image costing exactly `bytes` (a multiple of 4).
    static func image(costing bytes: Int, seed: UInt8 = 0) -> Image {
        Image(pixels: PixelBuffer(width: bytes / 4, height: 1, alphaMode: .premultiplied, fill: RGBA8(r: seed, g: 0, b: 0)))
    }

    @Test func conforms() {
        #expect(ImageMemoryCachingConformance.run { MemoryCache() } == [])
    }

    @Test func conformsInsideAnImageCache() async {
        let failures = await ImageCacheConformance.run(holdsImages: true, holdsData: false) {
            ImageCache(memory: [MemoryCache()])
        }
        #expect(failures == [])
    }

    @Test func lruOrderFollowsReadsAndWrites() {
        let cache = MemoryCache(configuration: .init(totalCostLimit: 0, countLimit: 3, usesWeakCache: false))
        for key in ["a", "b", "c"] { cache.setImage(Self.image(costing: 4), forKey: key) }
        #expect(cache.keysByRecency == ["c", "b", "a"])
        _ = cache.image(forKey: "a")
        #expect(cache.keysByRecency == ["a", "c", "b"])
        cache.setImage(Self.image(costing: 4), forKey: "d")  // evicts b, the least recently used
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(cache.image(forKey: "b") == nil)
        cache.setImage(Self.image(costing: 4), forKey: "c")  // overwrite moves to the front
        #expect(cache.keysByRecency == ["c", "d", "a"])
        #expect(cache.count == 3)
    }

    @Test func costLimitEvictsLeastRecentlyUsedUntilWithinLimit() {
        let cache = MemoryCache(configuration: .init(totalCostLimit: 100, usesWeakCache: false))
        cache.setImage(Self.image(costing: 40), forKey: "a")
        cache.setImage(Self.image(costing: 40), forKey: "b")
        _ = cache.image(forKey: "a")
        cache.setImage(Self.image(costing: 40), forKey: "c")  // 120 > 100: b goes
        #expect(cache.keysByRecency == ["c", "a"])
        #expect(cache.totalCost == 80)
        cache.setImage(Self.image(costing: 100), forKey: "d")  // needs everything else gone
        #expect(cache.keysByRecency == ["d"])
        #expect(cache.totalCost == 100)
        cache.setImage(Self.image(costing: 104), forKey: "e")  // over the whole limit: not kept
        #expect(cache.keysByRecency == ["d"])
    }

    @Test func perEntryCostLimitRejectsLargeImages() {
        let cache = MemoryCache(configuration: .init(totalCostLimit: 1000, entryCostLimit: 64))
        cache.setImage(Self.image(costing: 64), forKey: "fits")
        cache.setImage(Self.image(costing: 68), forKey: "big")
        #expect(cache.image(forKey: "fits") != nil)
        #expect(cache.image(forKey: "big") == nil)
        #expect(cache.totalCost == 64)
    }

    @Test func costOfAnAnimationCountsWhatItHolds() {
        let animation = ImageFixtures.animation(frames: 5)  // 32×32 frames, all in memory
        #expect(animation.memoryCost == 6 * 32 * 32 * 4)  // the poster and five frames
        let cache = MemoryCache(configuration: .init(totalCostLimit: 0))
        cache.setImage(animation, forKey: "gif")
        #expect(cache.totalCost == 6 * 32 * 32 * 4)
        cache.setImage(Self.image(costing: 8), forKey: "gif", cost: 1234)  // explicit cost wins
        #expect(cache.totalCost == 1234)
    }

    @Test func timeToLiveUsesTheInjectedClock() {
        let clock = ManualCacheClock()
        let cache = MemoryCache(configuration: .init(timeToLive: 60), clock: clock)
        cache.setImage(Self.image(costing: 4), forKey: "a")
        clock.advance(by: 30)
        cache.setImage(Self.image(costing: 4), forKey: "b")
        clock.advance(by: 29.9)
        #expect(cache.image(forKey: "a") != nil)  // reads do not extend the TTL
        clock.advance(by: 0.1)
        #expect(cache.image(forKey: "a") == nil)
        #expect(cache.containsImage(forKey: "b"))
        clock.advance(by: 30)
        #expect(!cache.containsImage(forKey: "b"))
        #expect(cache.count == 1)  // b is stale but still counted until swept or read
        cache.removeExpiredImages()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test func weakCacheFindsEvictedImagesStillReferenced() {
        let cache = MemoryCache(configuration: .init(totalCostLimit: 0, countLimit: 1))
        let held = Self.image(costing: 4, seed: 1)
        cache.setImage(held, forKey: "held")
        cache.setImage(Self.image(costing: 4, seed: 2), forKey: "other")  // evicts "held"
        #expect(cache.keysByRecency == ["other"])
        #expect(cache.image(forKey: "held") === held)  // found again through the weak table…
        #expect(cache.keysByRecency == ["held"])  // …and back in the LRU (evicting "other")
        withExtendedLifetime(held) {}
    }

    @Test func weakCacheForgetsReleasedImagesAndRemovals() {
        let cache = MemoryCache(configuration: .init(totalCostLimit: 0, countLimit: 1))
        cache.setImage(Self.image(costing: 4, seed: 1), forKey: "dropped")
        cache.setImage(Self.image(costing: 4, seed: 2), forKey: "other")
        #expect(cache.image(forKey: "dropped") == nil)  // nothing else held it

        let held = Self.image(costing: 4, seed: 3)
        cache.setImage(held, forKey: "removed")
        cache.removeImage(forKey: "removed")
        #expect(cache.image(forKey: "removed") == nil)  // explicit removal is final
        withExtendedLifetime(held) {}

        let off = MemoryCache(configuration: .init(totalCostLimit: 0, countLimit: 1, usesWeakCache: false))
        off.setImage(held, forKey: "held")
        off.setImage(Self.image(costing: 4), forKey: "other")
        #expect(off.image(forKey: "held") == nil)
    }

    @Test func defaultCostLimitIsFifteenPercentOfMemoryCappedAtOneGiB() {
        let physical = ProcessInfo.processInfo.physicalMemory
        #expect(MemoryCache.Configuration.defaultTotalCostLimit == Int(min(physical / 100 * 15, 1 << 30)))
        #expect(MemoryCache().configuration.countLimit == 0)
    }

    @Test func manyTasksReadAndWriteAtOnce() async {
        let cache = MemoryCache(configuration: .init(totalCostLimit: 64 * 40, usesWeakCache: true))
        let images = (0..<200).map { Self.image(costing: 64, seed: UInt8($0 % 256)) }
        await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2000 {
                        let index = (worker * 31 + round * 7) % images.count
                        if round % 3 == 0 {
                            cache.setImage(images[index], forKey: "k\(index)")
                        } else if let found = cache.image(forKey: "k\(index)"), found !== images[index] {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            let wrong = await group.reduce(0, +)
            #expect(wrong == 0)
        }
        #expect(cache.totalCost <= 64 * 40)
        #expect(cache.count == cache.keysByRecency.count)
        #expect(cache.totalCost == cache.count * 64)
    }
}
