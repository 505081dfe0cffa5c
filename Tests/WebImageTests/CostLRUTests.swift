import Foundation
import Testing

@testable import WebImage

@Suite("CostLRU and the LRU table")
struct CostLRUTests {
    @Test("within the cost limit, least recently used out first, reads counting as use")
    func budgetAndEvictionOrder() {
        let cache = CostLRU<String, Int>(costLimit: 40)
        for (value, key) in ["a", "b", "c", "d"].enumerated() { cache.set(value, forKey: key, cost: 10) }
        #expect(cache.keysByRecency == ["d", "c", "b", "a"])
        #expect(cache.value(forKey: "a") == 0)  // a is now the most recent
        cache.set(4, forKey: "e", cost: 10)  // 50 > 40: b, the least recent, goes
        #expect(cache.keysByRecency == ["e", "a", "d", "c"])
        cache.set(5, forKey: "f", cost: 25)  // 65 > 40: c, d, then a go, least recent first
        #expect(cache.keysByRecency == ["f", "e"])
        #expect(cache.totalCost == 35)
        #expect(cache.value(forKey: "b") == nil && cache.value(forKey: "c") == nil)
    }

    @Test("the summed cost never exceeds the limit after a store")
    func totalStaysWithinLimit() {
        let cache = CostLRU<Int, Int>(costLimit: 100)
        for key in 0..<200 {
            cache.set(key, forKey: key, cost: key % 37)
            #expect(cache.totalCost <= 100)
        }
        #expect(cache.value(forKey: 199) == 199)
    }

    @Test("a value over the entry limit or the whole budget is refused and replaces nothing")
    func oversizeRefused() {
        let cache = CostLRU<String, String>(costLimit: 40, entryCostLimit: 10)
        #expect(cache.set("small", forKey: "k", cost: 10))
        #expect(!cache.set("large", forKey: "k", cost: 11))
        #expect(cache.value(forKey: "k") == "small")
        #expect(cache.totalCost == 10)

        let unbounded = CostLRU<String, String>(costLimit: 40)
        #expect(unbounded.set("fits", forKey: "a", cost: 40))
        #expect(!unbounded.set("over", forKey: "b", cost: 41))
        #expect(unbounded.keysByRecency == ["a"])
    }

    @Test("a replacement's cost takes the old one's place")
    func replacementCost() {
        let cache = CostLRU<String, Int>(costLimit: 100)
        cache.set(1, forKey: "a", cost: 30)
        cache.set(2, forKey: "b", cost: 30)
        cache.set(3, forKey: "a", cost: 50)  // 50 + 30, not 30 + 30 + 50
        #expect(cache.totalCost == 80)
        #expect(cache.count == 2)
        #expect(cache.keysByRecency == ["a", "b"])
        cache.set(4, forKey: "a", cost: 5)
        #expect(cache.totalCost == 35)
        cache.set(5, forKey: "b", cost: 96)  // 96 + 5 > 100: a goes, b stays
        #expect(cache.keysByRecency == ["b"])
        #expect(cache.totalCost == 96)
        #expect(cache.set(6, forKey: "c", cost: -3))  // negative counts as 0
        #expect(cache.totalCost == 96)
    }

    @Test("count limit, contains without touching, removal")
    func countLimitAndRemoval() {
        let cache = CostLRU<String, Int>(costLimit: 0, countLimit: 2)
        cache.set(1, forKey: "a", cost: 1000)
        cache.set(2, forKey: "b", cost: 1000)
        #expect(cache.contains("a"))
        #expect(cache.keysByRecency == ["b", "a"], "contains does not change the order")
        cache.set(3, forKey: "c", cost: 1000)
        #expect(cache.keysByRecency == ["c", "b"])
        #expect(cache.removeValue(forKey: "b") == 2)
        #expect(cache.count == 1 && cache.totalCost == 1000)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0 && cache.keysByRecency.isEmpty)
    }

    @Test("string keys go through HashedKey")
    func hashedStringKeys() {
        let cache = CostLRU<HashedKey, Int>(costLimit: 10)
        cache.set(1, forKey: "result:a", cost: 4)
        #expect(cache.value(forKey: "result:a") == 1)
        #expect(cache.value(forKey: HashedKey("result:a")) == 1)
        #expect(cache.value(forKey: "result:b") == nil)
        #expect(HashedKey("x") == HashedKey("x") && HashedKey("x") != HashedKey("y"))
    }

    @Test("evicted and replaced values are released, outside the lock")
    func releasesEvictedValues() {
        final class Box: Sendable {}
        let cache = CostLRU<Int, Box>(costLimit: 2)
        weak var first: Box?
        weak var replaced: Box?
        do {
            let a = Box()
            let b = Box()
            first = a
            replaced = b
            cache.set(a, forKey: 1, cost: 1)
            cache.set(b, forKey: 2, cost: 1)
            cache.set(Box(), forKey: 2, cost: 1)  // replaces b
            cache.set(Box(), forKey: 3, cost: 1)  // evicts a
        }
        #expect(first == nil)
        #expect(replaced == nil)
        #expect(cache.count == 2)
    }

    @Test("concurrent readers and writers keep the accounting whole")
    func concurrencySmoke() async {
        let cache = CostLRU<Int, Int>(costLimit: 1000, entryCostLimit: 250)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<2000 {
                        let key = (worker * 31 + step) % 97
                        if step % 3 == 0 {
                            cache.set(key, forKey: key, cost: (step % 300))
                        } else if step % 17 == 0 {
                            cache.removeValue(forKey: key)
                        } else if let value = cache.value(forKey: key) {
                            #expect(value == key)
                        }
                    }
                }
            }
        }
        #expect(cache.totalCost <= 1000)
        #expect(cache.count == cache.keysByRecency.count)
    }

    @Test("the table reuses free slots, drops their keys and evicts to both limits")
    func tableInternals() {
        var table = LRUTable<String, Int>()
        table.set(1, forKey: "a", cost: 5)
        table.set(2, forKey: "b", cost: 5)
        table.remove(forKey: "a")
        #expect(table.nodes.count == 2)
        #expect(table.nodes.contains { $0.key == nil && $0.value == nil && $0.cost == 0 })
        table.set(3, forKey: "c", cost: 5)
        #expect(table.nodes.count == 2, "the freed slot is reused")
        #expect(table.removeLeastRecentlyUsed()?.key == "b")
        table.set(4, forKey: "d", cost: 5)
        table.set(5, forKey: "e", cost: 5)
        let evicted = table.evict(costLimit: 0, countLimit: 1)
        #expect(evicted.map(\.key) == ["c", "d"])
        #expect(table.keysByRecency == ["e"] && table.totalCost == 5)
        #expect(table.evict(costLimit: 4, countLimit: 0).map(\.value) == [5])
        #expect(table.head == -1 && table.tail == -1 && table.count == 0)
    }

    @Test("removeAll(where:) removes the matching keys, counts them and keeps the rest in order")
    func removeAllWhere() {
        let cache = CostLRU<String, Int>(costLimit: 100)
        for (value, key) in ["a1", "b1", "a2", "b2"].enumerated() { cache.set(value, forKey: key, cost: 10) }
        #expect(cache.removeAll { $0.hasPrefix("a") } == 2)
        #expect(cache.keysByRecency == ["b2", "b1"])
        #expect(cache.totalCost == 20)
        #expect(cache.removeAll { _ in false } == 0)
    }
}
