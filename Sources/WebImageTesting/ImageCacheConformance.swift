public import Foundation
public import WebImage

/// The behaviour every ``ImageCache`` shows over its tiers, as a suite that returns its failures
/// (so it runs under any test framework): queries, stores, removals, `contains` and totals per
/// ``ImageCacheType``, the synchronous memory path, the empty key, concurrent use.
///
/// Each check gets a fresh, empty cache from the factory. Declare what the cache holds: images
/// (memory tiers), bytes (data tiers), or both. Each side's own suite is
/// ``ImageMemoryCachingConformance`` and ``ImageDataCachingConformance``.
///
/// ```swift
/// @Test func memoryAndDiskConform() async throws {
///     let failures = await ImageCacheConformance.run(holdsImages: true, holdsData: true) {
///         ImageCache(memory: [MemoryCache()], data: [try DiskCache(configuration: configuration)])
///     }
///     #expect(failures == [])
/// }
/// ```
public enum ImageCacheConformance {
    /// Runs every check; returns one line per failure (empty when the cache conforms).
    public static func run(
        holdsImages: Bool, holdsData: Bool, makeCache: @Sendable () async throws -> ImageCache
    ) async -> [String] {
        let suite = Checks(holdsImages: holdsImages, holdsData: holdsData)
        var failures: [String] = []
        for (name, check) in suite.all {
            do {
                let cache = try await makeCache()
                failures += try await check(cache).map { "\(name): \($0)" }
            } catch {
                failures.append("\(name): threw \(error)")
            }
        }
        return failures
    }

    /// A small generated image whose pixels depend on `seed`.
    public static func image(seed: Int) -> Image {
        let fill = RGBA8(r: UInt8(seed & 0xFF), g: UInt8((seed >> 8) & 0xFF), b: 7, a: 255)
        return Image(pixels: PixelBuffer(width: 4, height: 3, alphaMode: .straight, fill: fill))
    }

    /// Bytes derived from `seed` (`count` of them).
    public static func data(seed: Int, count: Int = 300) -> Data {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data((0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }
}

/// The composite suite's former name.
@available(*, deprecated, renamed: "ImageCacheConformance")
public typealias ImageCachingConformance = ImageCacheConformance

private struct Checks: Sendable {
    typealias Check = @Sendable (ImageCache) async throws -> [String]
    let holdsImages: Bool
    let holdsData: Bool

    var all: [(String, Check)] {
        [
            ("empty", empty), ("storeAndQuery", storeAndQuery), ("metadata", metadata),
            ("containsPerType", containsPerType), ("noneType", noneType), ("memoryOnlyStore", memoryOnlyStore),
            ("diskOnlyStore", diskOnlyStore), ("overwrite", overwrite), ("remove", remove), ("clear", clear),
            ("totals", totals), ("synchronousMemoryPath", synchronousMemoryPath), ("concurrentUse", concurrentUse),
            ("emptyKey", emptyKey),
        ]
    }

    func empty(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        if try await cache.query(forKey: "missing", cacheType: .all) != nil { failures.append("query hit on empty cache") }
        if try await cache.contains(forKey: "missing", cacheType: .all) != .none { failures.append("contains on empty") }
        if try await cache.totalCount(cacheType: .all) != 0 { failures.append("count not 0") }
        if try await cache.totalSize(cacheType: .all) != 0 { failures.append("size not 0") }
        if cache.memoryImage(forKey: "missing") != nil { failures.append("memory hit on empty cache") }
        return failures
    }

    func storeAndQuery(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        let image = ImageCacheConformance.image(seed: 1)
        let data = ImageCacheConformance.data(seed: 1)
        try await cache.store(image: image, data: data, forKey: "a", cacheType: .all)
        guard let hit = try await cache.query(forKey: "a", cacheType: .all) else { return ["no hit after store"] }
        if holdsImages, hit.image !== image { failures.append("query(.all) did not return the stored image") }
        if holdsImages, hit.cacheType != .memory { failures.append("image hit reported \(hit.cacheType)") }
        if holdsData {
            let options = ImageCache.QueryOptions(decodeImage: false)
            let diskHit = try await cache.query(forKey: "a", cacheType: .disk, options: options)
            if diskHit?.data != data { failures.append("query(.disk) bytes differ") }
            if diskHit?.cacheType != .disk { failures.append("disk hit reported \(String(describing: diskHit?.cacheType))") }
        }
        if holdsImages, try await cache.query(forKey: "a", cacheType: .memory)?.image !== image {
            failures.append("query(.memory) missed")
        }
        return failures
    }

    func metadata(_ cache: ImageCache) async throws -> [String] {
        guard holdsData else { return [] }
        var stored = CacheEntryMetadata(
            originalURL: URL(string: "https://example.com/a.webp?x=1"), contentType: "image/webp",
            http: HTTPCacheMetadata(
                etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", cacheControl: "max-age=600",
                expires: "Wed, 21 Oct 2015 08:28:00 GMT", date: "Wed, 21 Oct 2015 07:28:00 GMT", age: 12),
            extendedData: Data([1, 2, 3, 0, 255]))
        let data = ImageCacheConformance.data(seed: 2, count: 777)
        try await cache.store(data: data, metadata: stored, forKey: "m", cacheType: .disk)
        let options = ImageCache.QueryOptions(decodeImage: false)
        guard let read = try await cache.query(forKey: "m", cacheType: .disk, options: options)?.metadata else {
            return ["no metadata read back"]
        }
        var failures: [String] = []
        if read.byteSize != 777 { failures.append("byteSize \(read.byteSize)") }
        stored.byteSize = read.byteSize
        stored.createdAt = read.createdAt
        stored.modifiedAt = read.modifiedAt
        stored.lastAccessAt = read.lastAccessAt
        if read != stored { failures.append("metadata differs: \(read) vs \(stored)") }
        if read.modifiedAt < read.createdAt { failures.append("modifiedAt before createdAt") }
        return failures
    }

    func containsPerType(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        try await cache.store(image: ImageCacheConformance.image(seed: 3), data: ImageCacheConformance.data(seed: 3), forKey: "c", cacheType: .all)
        let memory = try await cache.contains(forKey: "c", cacheType: .memory)
        let disk = try await cache.contains(forKey: "c", cacheType: .disk)
        let any = try await cache.contains(forKey: "c", cacheType: .all)
        if memory != (holdsImages ? .memory : .none) { failures.append("contains(.memory) = \(memory)") }
        if disk != (holdsData ? .disk : .none) { failures.append("contains(.disk) = \(disk)") }
        if any == .none || !ImageCacheType(memory: holdsImages, disk: holdsData).contains(any) {
            failures.append("contains(.all) = \(any)")
        }
        return failures
    }

    func noneType(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        try await cache.store(image: ImageCacheConformance.image(seed: 4), data: ImageCacheConformance.data(seed: 4), forKey: "n", cacheType: .none)
        if try await cache.contains(forKey: "n", cacheType: .all) != .none { failures.append("store(.none) stored") }
        try await cache.store(image: ImageCacheConformance.image(seed: 4), data: ImageCacheConformance.data(seed: 4), forKey: "n", cacheType: .all)
        if try await cache.query(forKey: "n", cacheType: .none) != nil { failures.append("query(.none) hit") }
        if try await cache.contains(forKey: "n", cacheType: .none) != .none { failures.append("contains(.none) hit") }
        return failures
    }

    func memoryOnlyStore(_ cache: ImageCache) async throws -> [String] {
        try await cache.store(image: ImageCacheConformance.image(seed: 5), data: ImageCacheConformance.data(seed: 5), forKey: "mo", cacheType: .memory)
        let found = try await cache.contains(forKey: "mo", cacheType: .all)
        return found == (holdsImages ? .memory : .none) ? [] : ["after store(.memory) contains = \(found)"]
    }

    func diskOnlyStore(_ cache: ImageCache) async throws -> [String] {
        try await cache.store(image: ImageCacheConformance.image(seed: 6), data: ImageCacheConformance.data(seed: 6), forKey: "do", cacheType: .disk)
        var failures: [String] = []
        let found = try await cache.contains(forKey: "do", cacheType: .disk)
        if found != (holdsData ? .disk : .none) { failures.append("after store(.disk) contains(.disk) = \(found)") }
        if cache.memoryImage(forKey: "do") != nil { failures.append("store(.disk) filled memory") }
        return failures
    }

    func overwrite(_ cache: ImageCache) async throws -> [String] {
        let first = ImageCacheConformance.image(seed: 7)
        let second = ImageCacheConformance.image(seed: 8)
        try await cache.store(image: first, data: ImageCacheConformance.data(seed: 7, count: 100), forKey: "o", cacheType: .all)
        try await cache.store(image: second, data: ImageCacheConformance.data(seed: 8, count: 50), forKey: "o", cacheType: .all)
        var failures: [String] = []
        if holdsImages, cache.memoryImage(forKey: "o") !== second { failures.append("memory kept the old image") }
        if holdsData {
            let hit = try await cache.query(forKey: "o", cacheType: .disk, options: ImageCache.QueryOptions(decodeImage: false))
            if hit?.data != ImageCacheConformance.data(seed: 8, count: 50) { failures.append("disk kept the old bytes") }
            if try await cache.totalCount(cacheType: .disk) != 1 { failures.append("overwrite added a disk entry") }
        }
        return failures
    }

    func remove(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        for key in ["r1", "r2"] {
            try await cache.store(image: ImageCacheConformance.image(seed: 9), data: ImageCacheConformance.data(seed: 9), forKey: key, cacheType: .all)
        }
        try await cache.remove(forKey: "r1", cacheType: .all)
        if try await cache.contains(forKey: "r1", cacheType: .all) != .none { failures.append("removed key still present") }
        if try await cache.query(forKey: "r1", cacheType: .all) != nil { failures.append("removed key still queried") }
        if try await cache.contains(forKey: "r2", cacheType: .all) == .none { failures.append("remove took another key") }
        if holdsImages && holdsData {
            try await cache.remove(forKey: "r2", cacheType: .memory)
            let left = try await cache.contains(forKey: "r2", cacheType: .all)
            if left != .disk { failures.append("remove(.memory) left \(left)") }
        }
        return failures
    }

    func clear(_ cache: ImageCache) async throws -> [String] {
        for index in 0..<5 {
            try await cache.store(image: ImageCacheConformance.image(seed: index), data: ImageCacheConformance.data(seed: index), forKey: "k\(index)", cacheType: .all)
        }
        try await cache.clear(cacheType: .all)
        var failures: [String] = []
        if try await cache.totalCount(cacheType: .all) != 0 { failures.append("count after clear") }
        if try await cache.totalSize(cacheType: .all) != 0 { failures.append("size after clear") }
        if try await cache.query(forKey: "k0", cacheType: .all) != nil { failures.append("hit after clear") }
        return failures
    }

    func totals(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        var bytes = 0
        var cost = 0
        for index in 0..<6 {
            let image = ImageCacheConformance.image(seed: index)
            let data = ImageCacheConformance.data(seed: index, count: 100 + index)
            bytes += data.count
            cost += image.memoryCost
            try await cache.store(image: image, data: data, forKey: "t\(index)", cacheType: .all)
        }
        let memoryCount = try await cache.totalCount(cacheType: .memory)
        let diskCount = try await cache.totalCount(cacheType: .disk)
        let memorySize = try await cache.totalSize(cacheType: .memory)
        let diskSize = try await cache.totalSize(cacheType: .disk)
        if memoryCount != (holdsImages ? 6 : 0) { failures.append("memory count \(memoryCount)") }
        if diskCount != (holdsData ? 6 : 0) { failures.append("disk count \(diskCount)") }
        if memorySize != (holdsImages ? cost : 0) { failures.append("memory size \(memorySize)") }
        if diskSize != (holdsData ? bytes : 0) { failures.append("disk size \(diskSize)") }
        if try await cache.totalCount(cacheType: .all) != memoryCount + diskCount { failures.append("count(.all) not the sum") }
        return failures
    }

    func synchronousMemoryPath(_ cache: ImageCache) async throws -> [String] {
        let image = ImageCacheConformance.image(seed: 10)
        cache.storeInMemory(image, forKey: "s")
        let found = cache.memoryImage(forKey: "s")
        if holdsImages { return found === image ? [] : ["storeInMemory then memoryImage missed"] }
        return found == nil ? [] : ["a cache without memory returned an image"]
    }

    /// The empty string is not a key: a store fails with `invalidCacheKey` and keeps nothing.
    func emptyKey(_ cache: ImageCache) async throws -> [String] {
        var failures: [String] = []
        let image = ImageCacheConformance.image(seed: 11)
        do {
            try await cache.store(image: image, data: ImageCacheConformance.data(seed: 11), forKey: "", cacheType: .all)
            failures.append("store under \"\" did not throw")
        } catch let error as WebImageError where error.code == .invalidCacheKey {
        } catch {
            failures.append("store under \"\" threw \(error), not invalidCacheKey")
        }
        cache.storeInMemory(image, forKey: "")
        if cache.memoryImage(forKey: "") != nil { failures.append("storeInMemory kept an image under \"\"") }
        if try await cache.totalCount(cacheType: .all) != 0 { failures.append("an entry was stored under \"\"") }
        if try await cache.query(forKey: "", cacheType: .all) != nil { failures.append("query under \"\" hit") }
        return failures
    }

    func concurrentUse(_ cache: ImageCache) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for index in 0..<12 {
                        let seed = worker * 100 + index
                        let key = "w\(worker)-\(index)"
                        let image = ImageCacheConformance.image(seed: seed)
                        let data = ImageCacheConformance.data(seed: seed, count: 64 + index)
                        try await cache.store(image: image, data: data, forKey: key, cacheType: .all)
                        let options = ImageCache.QueryOptions(decodeImage: false, includeData: true)
                        let hit = try await cache.query(forKey: key, cacheType: .all, options: options)
                        if holdsImages, hit?.image !== image { failures.append("\(key): wrong image") }
                        if holdsData, hit?.data != data { failures.append("\(key): wrong bytes") }
                    }
                    return failures
                }
            }
            return try await group.reduce([], +)
        }
    }
}
