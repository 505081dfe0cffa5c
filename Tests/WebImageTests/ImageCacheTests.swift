import Foundation
import Synchronization
import Testing
import WebImage
import WebImageTesting

/// Decodes a toy format: "RAW" + width + height, then one fill colour (R, G, B, A); counts calls.
final class RawTestDecoder: ImageDecoding {
    let calls = Mutex(0)

    static func encode(width: UInt8, height: UInt8, fill: RGBA8) -> Data {
        Data("RAW".utf8) + Data([width, height, fill.r, fill.g, fill.b, fill.a])
    }

    func canDecode(_ data: Data) -> Bool { data.starts(with: Data("RAW".utf8)) }

    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        calls.withLock { $0 += 1 }
        let bytes = [UInt8](data)
        guard bytes.count == 9, canDecode(data) else { throw WebImageError.badData("not RAW") }
        let fill = RGBA8(r: bytes[5], g: bytes[6], b: bytes[7], a: bytes[8])
        let pixels = PixelBuffer(width: Int(bytes[3]), height: Int(bytes[4]), alphaMode: .premultiplied, fill: fill)
        return Image(pixels: pixels, scale: options.scaleFactor)
    }
}

@Suite("ImageCache")
struct ImageCacheTests {
    @Test func conformsOverMemoryAndADataDouble() async {
        let failures = await ImageCacheConformance.run(holdsImages: true, holdsData: true) {
            ImageCache(memory: [MemoryCache()], data: [TestImageCache()])
        }
        #expect(failures == [])
    }

    @Test func testDoubleConformsOnEachSide() async {
        #expect(ImageMemoryCachingConformance.run { TestImageCache() } == [])
        #expect(await ImageDataCachingConformance.run { TestImageCache() } == [])
        for (memory, data) in [(true, true), (true, false), (false, true)] {
            let failures = await ImageCacheConformance.run(holdsImages: memory, holdsData: data) {
                let double = TestImageCache()
                return ImageCache(memory: memory ? [double] : [], data: data ? [double] : [])
            }
            #expect(failures == [], "memory \(memory), data \(data)")
        }
    }

    @Test func serialQueryStopsAtTheFirstHit() async throws {
        let first = TestImageCache()
        let second = TestImageCache()
        let cache = ImageCache(data: [first, second])
        try await second.setData(Data([1]), forKey: "k", metadata: nil)
        try await first.setData(Data([2]), forKey: "k", metadata: nil)
        let hit = try await cache.query(forKey: "k", cacheType: .all)
        #expect(hit?.data == Data([2]))
        #expect(second.operations == ["setData k"])  // never asked
        #expect(try await cache.query(forKey: "missing", cacheType: .all) == nil)
        #expect(first.operations.last == "entry missing" && second.operations.last == "entry missing")
    }

    @Test func highestAndLowestOnlyReachOneTier() async throws {
        let first = TestImageCache()
        let second = TestImageCache()
        let highest = ImageCache(
            data: [first, second],
            policies: ImageCache.Policies(query: .highestOnly, store: .highestOnly, remove: .lowestOnly, contains: .lowestOnly, clear: .highestOnly))
        try await highest.store(data: Data([1]), forKey: "k", cacheType: .disk)
        #expect(try await first.containsData(forKey: "k"))
        #expect(try await !second.containsData(forKey: "k"))
        #expect(try await highest.contains(forKey: "k", cacheType: .all) == .none)  // asks the lowest only
        try await second.setData(Data([9]), forKey: "k", metadata: nil)
        try await highest.remove(forKey: "k", cacheType: .all)  // removes from the lowest only
        #expect(try await highest.query(forKey: "k", cacheType: .all)?.data == Data([1]))
        try await highest.clear(cacheType: .all)
        #expect(try await highest.query(forKey: "k", cacheType: .all) == nil)
    }

    @Test("A policy applies to each side: highestOnly stores into the first memory tier and the first data tier")
    func policiesApplyPerSide() async throws {
        let memory = [MemoryCache(), MemoryCache()]
        let data = [TestImageCache(), TestImageCache()]
        let cache = ImageCache(memory: memory, data: data, policies: ImageCache.Policies(store: .highestOnly))
        try await cache.store(image: ImageCacheConformance.image(seed: 1), data: Data([1]), forKey: "k", cacheType: .all)
        #expect(memory.map(\.count) == [1, 0])
        #expect(try await data[0].containsData(forKey: "k"))
        #expect(try await !data[1].containsData(forKey: "k"))
        let lowest = ImageCache(memory: memory, data: data, policies: ImageCache.Policies(store: .lowestOnly))
        try await lowest.store(image: ImageCacheConformance.image(seed: 2), data: Data([2]), forKey: "l", cacheType: .all)
        #expect(memory.map(\.count) == [1, 1])
        #expect(try await data[1].data(forKey: "l") == Data([2]))
    }

    @Test func theSynchronousMemoryLookupFollowsTheQueryPolicy() async throws {
        let memory = [MemoryCache(), MemoryCache()]
        memory[1].setImage(ImageCacheConformance.image(seed: 3), forKey: "k", cost: nil)
        let highest = ImageCache(memory: memory, data: [], policies: ImageCache.Policies(query: .highestOnly))
        #expect(highest.memoryImage(forKey: "k") == nil)
        #expect(try await highest.query(forKey: "k", cacheType: .memory) == nil)
        let lowest = ImageCache(memory: memory, data: [], policies: ImageCache.Policies(query: .lowestOnly))
        #expect(lowest.memoryImage(forKey: "k") != nil)
        #expect(try await lowest.query(forKey: "k", cacheType: .memory) != nil)
    }

    @Test func concurrentPoliciesReachEveryTier() async throws {
        let first = TestImageCache()
        let second = TestImageCache()
        let cache = ImageCache(
            memory: [first, second], data: [first, second],
            policies: ImageCache.Policies(query: .concurrent, store: .concurrent, remove: .concurrent, contains: .concurrent, clear: .concurrent))
        try await cache.store(image: ImageCacheConformance.image(seed: 1), data: Data([5]), forKey: "k", cacheType: .all)
        #expect(first.operations == ["setImage k", "setData k"] && second.operations == ["setImage k", "setData k"])
        #expect(try await cache.contains(forKey: "k", cacheType: .all) == .all)  // the union of every answer
        second.removeImage(forKey: "k")
        try await first.removeData(forKey: "k")
        #expect(try await cache.contains(forKey: "k", cacheType: .all) == .all)  // memory from one, data from the other
        #expect(try await cache.query(forKey: "k", cacheType: .all) != nil)
        first.removeImage(forKey: "k")  // now only the second tier's bytes are left
        #expect(try await cache.query(forKey: "k", cacheType: .all, options: ImageCache.QueryOptions(decodeImage: false))?.data == Data([5]))
        try await cache.clear(cacheType: .all)
        #expect(try await cache.totalCount(cacheType: .all) == 0)
    }

    @Test func diskHitsAreDecodedAndPromotedToMemory() async throws {
        let memory = MemoryCache()
        let disk = TestImageCache()
        let decoder = RawTestDecoder()
        let cache = ImageCache(memory: [memory], data: [disk], decoder: decoder)
        let bytes = RawTestDecoder.encode(width: 3, height: 2, fill: RGBA8(r: 9, g: 8, b: 7))
        var metadata = CacheEntryMetadata(contentType: "image/x-raw")
        metadata.http.etag = "\"e\""
        try await cache.store(data: bytes, metadata: metadata, forKey: "k", cacheType: .disk)
        #expect(cache.memoryImage(forKey: "k") == nil)

        let options = ImageCache.QueryOptions(decodingOptions: ImageDecodingOptions(scaleFactor: 2))
        let hit = try #require(try await cache.query(forKey: "k", cacheType: .all, options: options))
        #expect(hit.cacheType == .disk)
        #expect(hit.data == bytes && hit.metadata?.http.etag == "\"e\"")
        #expect(hit.image?.pixelSize == PixelSize(width: 3, height: 2) && hit.image?.scale == 2)
        #expect(memory.image(forKey: "k") === hit.image)  // promoted
        #expect(cache.memoryImage(forKey: "k") === hit.image)

        let again = try await cache.query(forKey: "k", cacheType: .all)
        #expect(again?.cacheType == .memory && again?.data == nil)
        #expect(decoder.calls.withLock { $0 } == 1)
        let withData = try await cache.query(forKey: "k", cacheType: .all, options: ImageCache.QueryOptions(includeData: true))
        #expect(withData?.cacheType == .memory && withData?.data == bytes && withData?.image === hit.image)
    }

    @Test func aDecodedDataHitGoesIntoEveryMemoryTier() async throws {
        let memory = [MemoryCache(), MemoryCache()]
        let cache = ImageCache(memory: memory, data: [TestImageCache()], decoder: RawTestDecoder())
        try await cache.store(data: RawTestDecoder.encode(width: 2, height: 2, fill: .white), forKey: "k", cacheType: .disk)
        let hit = try await cache.query(forKey: "k", cacheType: .all)
        #expect(hit?.image != nil && memory.allSatisfy { $0.image(forKey: "k") === hit?.image })
    }

    @Test("A thumbnail or first-frame decode of a disk hit never goes into memory under the full-size key")
    func reducedDecodesAreNotPromoted() async throws {
        let memory = MemoryCache()
        let cache = ImageCache(memory: [memory], data: [TestImageCache()], decoder: RawTestDecoder())
        try await cache.store(data: RawTestDecoder.encode(width: 8, height: 8, fill: .white), forKey: "k", cacheType: .disk)
        var thumbnail = ImageCache.QueryOptions()
        thumbnail.decodingOptions.thumbnailPixelSize = PixelSize(width: 2, height: 2)
        #expect(try await cache.query(forKey: "k", cacheType: .all, options: thumbnail)?.image != nil)
        #expect(memory.count == 0)
        var firstFrame = ImageCache.QueryOptions()
        firstFrame.decodingOptions.firstFrameOnly = true
        #expect(try await cache.query(forKey: "k", cacheType: .all, options: firstFrame)?.image != nil)
        #expect(memory.count == 0)
        // A full-size decode is promoted as before.
        #expect(try await cache.query(forKey: "k", cacheType: .all)?.image != nil)
        #expect(memory.count == 1)
    }

    @Test func dataOnlyQueriesAndUndecodableBytes() async throws {
        let memory = MemoryCache()
        let disk = TestImageCache()
        let decoder = RawTestDecoder()
        let cache = ImageCache(memory: [memory], data: [disk], decoder: decoder)
        try await cache.store(data: RawTestDecoder.encode(width: 1, height: 1, fill: .white), forKey: "k", cacheType: .disk)
        let dataOnly = try await cache.query(forKey: "k", cacheType: .all, options: ImageCache.QueryOptions(decodeImage: false))
        #expect(dataOnly?.image == nil && dataOnly?.data != nil)
        let noPromotion = try await cache.query(forKey: "k", cacheType: .all, options: ImageCache.QueryOptions(promoteToMemory: false))
        #expect(noPromotion?.image != nil && memory.count == 0)

        try await cache.store(data: Data("garbage".utf8), forKey: "bad", cacheType: .disk)
        let bad = try await cache.query(forKey: "bad", cacheType: .all)
        #expect(bad?.image == nil && bad?.data == Data("garbage".utf8))
        #expect(memory.count == 0)
    }

    @Test func revalidationReachesEveryDataTier() async throws {
        let tiers = [TestImageCache(), TestImageCache()]
        let cache = ImageCache(memory: [MemoryCache()], data: tiers)
        try await cache.store(data: Data([1]), metadata: CacheEntryMetadata(http: HTTPCacheMetadata(etag: "\"a\"")), forKey: "k")
        #expect(try await cache.recordRevalidation(forKey: "k", http: HTTPCacheMetadata(etag: "\"b\"")))
        for tier in tiers { #expect(try await tier.entry(forKey: "k")?.metadata.http.etag == "\"b\"") }
        #expect(try await !cache.recordRevalidation(forKey: "missing", http: HTTPCacheMetadata(etag: "\"b\"")))
    }

    @Test func errorsFromATierPropagate() async throws {
        let failing = TestImageCache()
        failing.failure = WebImageError(.cacheIO, "disk full")
        let cache = ImageCache(memory: [MemoryCache()], data: [failing])
        await #expect(throws: WebImageError.self) { try await cache.store(data: Data([1]), forKey: "k") }
        await #expect(throws: WebImageError.self) { try await cache.query(forKey: "k", cacheType: .all) }
    }

    @Test func cacheTypeAlgebra() {
        #expect(ImageCacheType.memory.union(.disk) == .all)
        #expect(ImageCacheType.all.intersection(.disk) == .disk)
        #expect(ImageCacheType.all.contains(.memory) && !ImageCacheType.disk.contains(.memory))
        #expect(ImageCacheType.none.contains(.none) && !ImageCacheType.none.includesMemory)
    }
}
