import Dispatch
import Synchronization
public import WebImage

/// The behaviour every ``ImageMemoryCaching`` implementation must show, as a suite that returns
/// its failures (so it runs under any test framework): identity of what is stored, cost and count
/// accounting, overwrite, removal, the empty key, concurrent use.
///
/// Each check gets a fresh, empty cache from the factory, whose limits must hold a few small
/// images. The checks are synchronous, as the side is.
///
/// ```swift
/// @Test func memoryCacheConforms() {
///     #expect(ImageMemoryCachingConformance.run { MemoryCache() } == [])
/// }
/// ```
public enum ImageMemoryCachingConformance {
    /// Runs every check; returns one line per failure (empty when the cache conforms).
    public static func run(makeCache: @Sendable () -> any ImageMemoryCaching) -> [String] {
        let checks: [(String, @Sendable (any ImageMemoryCaching) -> [String])] = [
            ("empty", empty), ("setAndGet", setAndGet), ("costs", costs), ("overwrite", overwrite),
            ("remove", remove), ("removeAll", removeAll), ("emptyKey", emptyKey), ("concurrentUse", concurrentUse),
        ]
        return checks.flatMap { name, check in check(makeCache()).map { "\(name): \($0)" } }
    }

    private static func image(_ seed: Int) -> Image { ImageCacheConformance.image(seed: seed) }

    private static func empty(_ cache: any ImageMemoryCaching) -> [String] {
        var failures: [String] = []
        if cache.image(forKey: "missing") != nil { failures.append("hit on an empty cache") }
        if cache.containsImage(forKey: "missing") { failures.append("contains on an empty cache") }
        if cache.count != 0 || cache.totalCost != 0 { failures.append("count \(cache.count), cost \(cache.totalCost)") }
        return failures
    }

    private static func setAndGet(_ cache: any ImageMemoryCaching) -> [String] {
        let stored = image(1)
        cache.setImage(stored, forKey: "a", cost: nil)
        var failures: [String] = []
        if cache.image(forKey: "a") !== stored { failures.append("did not return the stored image") }
        if !cache.containsImage(forKey: "a") { failures.append("containsImage false after set") }
        if cache.image(forKey: "b") != nil || cache.containsImage(forKey: "b") { failures.append("another key hit") }
        return failures
    }

    private static func costs(_ cache: any ImageMemoryCaching) -> [String] {
        let first = image(2)
        let second = image(3)
        cache.setImage(first, forKey: "c1", cost: nil)
        cache.setImage(second, forKey: "c2", cost: 1234)
        var failures: [String] = []
        if cache.count != 2 { failures.append("count \(cache.count), not 2") }
        let expected = first.memoryCost + 1234
        if cache.totalCost != expected { failures.append("total cost \(cache.totalCost), not \(expected)") }
        return failures
    }

    private static func overwrite(_ cache: any ImageMemoryCaching) -> [String] {
        let second = image(5)
        cache.setImage(image(4), forKey: "o", cost: 100)
        cache.setImage(second, forKey: "o", cost: 40)
        var failures: [String] = []
        if cache.image(forKey: "o") !== second { failures.append("kept the old image") }
        if cache.count != 1 || cache.totalCost != 40 { failures.append("count \(cache.count), cost \(cache.totalCost)") }
        return failures
    }

    private static func remove(_ cache: any ImageMemoryCaching) -> [String] {
        let kept = image(7)
        cache.setImage(image(6), forKey: "r1", cost: 10)
        cache.setImage(kept, forKey: "r2", cost: 20)
        cache.removeImage(forKey: "r1")
        cache.removeImage(forKey: "never-stored")
        var failures: [String] = []
        if cache.image(forKey: "r1") != nil || cache.containsImage(forKey: "r1") { failures.append("removed key still held") }
        if cache.image(forKey: "r2") !== kept { failures.append("remove took another key") }
        if cache.count != 1 || cache.totalCost != 20 { failures.append("count \(cache.count), cost \(cache.totalCost)") }
        return failures
    }

    private static func removeAll(_ cache: any ImageMemoryCaching) -> [String] {
        for index in 0..<5 { cache.setImage(image(index), forKey: "k\(index)", cost: nil) }
        cache.removeAllImages()
        var failures: [String] = []
        if cache.count != 0 || cache.totalCost != 0 { failures.append("count \(cache.count), cost \(cache.totalCost)") }
        if cache.image(forKey: "k0") != nil { failures.append("hit after removeAllImages") }
        return failures
    }

    /// The empty string is not a key: nothing is kept under it.
    private static func emptyKey(_ cache: any ImageMemoryCaching) -> [String] {
        cache.setImage(image(8), forKey: "", cost: nil)
        var failures: [String] = []
        if cache.image(forKey: "") != nil || cache.containsImage(forKey: "") { failures.append("kept an image under \"\"") }
        if cache.count != 0 { failures.append("count \(cache.count) after a store under \"\"") }
        return failures
    }

    private static func concurrentUse(_ cache: any ImageMemoryCaching) -> [String] {
        let workers = 8
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in 0..<50 {
                let key = "w\(worker)-\(index)"
                let stored = ImageCacheConformance.image(seed: worker * 100 + index)
                cache.setImage(stored, forKey: key, cost: 1)
                if cache.image(forKey: key) !== stored { failures.append("\(key): wrong image") }
            }
        }
        var found = failures.all
        if cache.count != workers * 50 { found.append("count \(cache.count), not \(workers * 50)") }
        return found
    }
}

/// Failure lines collected from several threads.
private final class Failures: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }
}
