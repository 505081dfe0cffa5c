import Foundation
import Testing
@testable import WebImage

/// The cache key, the final-image job key and the download+decode job key all come from the
/// request's result identity: these tests pin which fields move which key.
@Suite("Request identity: cache keys and coalescing keys")
struct RequestIdentityTests {
    /// One change to a request, applied on top of `base`.
    struct Change: Sendable, CustomTestStringConvertible {
        let name: String
        var base: @Sendable (inout ImageRequest) -> Void = { _ in }
        let apply: @Sendable (inout ImageRequest) -> Void
        var testDescription: String { name }
    }

    struct NamedTransformer: ImageTransforming {
        let key: String
        func transform(_ image: Image) throws -> Image { image }
    }

    struct Keys: Equatable {
        let cache: String
        let original: String
        let final: FinalJobKey
        let fetch: FetchJobKey
    }

    static let url = URL(string: "https://x.com/a/b.png?v=2")!

    /// The keys the manager computes for `request` (after its key filter).
    static func keys(_ request: ImageRequest) throws -> Keys {
        let url = try #require(request.url)
        let originalKey = try #require(request.originalCacheKey)
        let plan = RequestPlan(request: request, url: url, originalKey: originalKey)
        #expect(request.cacheKey == plan.key)
        return Keys(cache: plan.key, original: plan.originalKey, final: plan.finalKey, fetch: plan.fetchKey(revalidating: false))
    }

    static func keys(of change: Change) throws -> (before: Keys, after: Keys) {
        var request = ImageRequest(url: url)
        change.base(&request)
        let before = try keys(request)
        change.apply(&request)
        return (before, try keys(request))
    }

    // MARK: Fields that name the result

    static let namingChanges: [Change] = [
        Change(name: "URL") { $0.url = URL(string: "https://x.com/a/c.png") },
        Change(name: "key filter") { $0.caching.keyFilter = { $0.absoluteString.components(separatedBy: "?")[0] } },
        Change(name: "thumbnail size") { $0.decoding.thumbnailPixelSize = PixelSize(width: 100, height: 80) },
        Change(
            name: "thumbnail aspect", base: { $0.decoding.thumbnailPixelSize = PixelSize(width: 100, height: 80) },
            apply: { $0.decoding.preserveAspectRatio = false }),
        Change(
            name: "other thumbnail size", base: { $0.decoding.thumbnailPixelSize = PixelSize(width: 100, height: 80) },
            apply: { $0.decoding.thumbnailPixelSize = PixelSize(width: 80, height: 100) }),
        Change(name: "first frame only") { $0.options.insert(.decodeFirstFrameOnly) },
    ]

    @Test("Every field that names the result changes the cache key and both job keys", arguments: namingChanges)
    func namingFields(change: Change) throws {
        let (before, after) = try Self.keys(of: change)
        #expect(before.cache != after.cache)
        #expect(before.final != after.final)
        #expect(before.fetch != after.fetch)
    }

    @Test("A transformer changes the cache key and the final job, and shares the download and decode")
    func transformer() throws {
        let (before, after) = try Self.keys(of: Change(name: "transformer") { $0.transformer = NamedTransformer(key: "T") })
        #expect(before.cache != after.cache)
        #expect(before.original == after.original)
        #expect(before.final != after.final)
        #expect(before.fetch == after.fetch)
        let (one, other) = try Self.keys(of: Change(
            name: "other transformer", base: { $0.transformer = NamedTransformer(key: "T") },
            apply: { $0.transformer = NamedTransformer(key: "U") }))
        #expect(one.cache != other.cache)
        #expect(one.final != other.final)
        #expect(one.fetch == other.fetch)
    }

    // MARK: Fields that change the work, not the cache key

    static let allFlags: [(String, ImageRequest.Options)] = [
        ("retryFailed", .retryFailed), ("lowPriority", .lowPriority), ("highPriority", .highPriority),
        ("progressiveLoad", .progressiveLoad), ("refreshCached", .refreshCached), ("handleCookies", .handleCookies),
        ("allowInvalidSSLCertificates", .allowInvalidSSLCertificates), ("transformAnimatedImage", .transformAnimatedImage),
        ("scaleDownLargeImages", .scaleDownLargeImages), ("queryMemoryData", .queryMemoryData),
        ("fromCacheOnly", .fromCacheOnly), ("fromLoaderOnly", .fromLoaderOnly),
        ("decodeFirstFrameOnly", .decodeFirstFrameOnly), ("preloadAllFrames", .preloadAllFrames),
        ("waitStoreCache", .waitStoreCache), ("storeLocalFilesOnDisk", .storeLocalFilesOnDisk),
    ]

    static let workChanges: [Change] =
        allFlags.filter { !["lowPriority", "highPriority", "decodeFirstFrameOnly"].contains($0.0) }.map { name, flag in
            Change(name: name) { $0.options.insert(flag) }
        } + [
            Change(name: "scale factor") { $0.decoding.scaleFactor = 2 },
            Change(
                name: "scale-down limit", base: { $0.options.insert(.scaleDownLargeImages) },
                apply: { $0.decoding.scaleDownLimitBytes = 1024 }),
            Change(name: "query type") { $0.caching.queryType = .memory },
            Change(name: "store type") { $0.caching.storeType = .disk },
            Change(name: "original query type") { $0.caching.originalQueryType = .all },
            Change(name: "original store type") { $0.caching.originalStoreType = .none },
            Change(name: "encode options") { $0.caching.encodeOptions.quality = 0.5 },
        ]

    @Test("Every other flag and setting keeps requests apart without changing the cache key", arguments: workChanges)
    func workFields(change: Change) throws {
        let (before, after) = try Self.keys(of: change)
        #expect(before.cache == after.cache)
        #expect(before.final != after.final)
    }

    static let sourceChanges: [Change] =
        allFlags.filter { ImageRequest.Options.sourceAffecting.contains($0.1) }.map { name, flag in
            Change(name: name) { $0.options.insert(flag) }
        } + [
            Change(name: "scale factor") { $0.decoding.scaleFactor = 2 },
            Change(name: "scale down") { $0.options.insert(.scaleDownLargeImages) },
            Change(name: "preload all frames") { $0.options.insert(.preloadAllFrames) },
        ]

    @Test("Decode settings and the fetch flags keep downloads and decodes apart", arguments: sourceChanges)
    func sourceFields(change: Change) throws {
        let (before, after) = try Self.keys(of: change)
        #expect(before.fetch != after.fetch)
    }

    // MARK: Fields that change nothing

    enum Trace: ImageRequest.UserInfoKey { static let defaultValue = "" }

    static let neutralChanges: [Change] = [
        Change(name: "low priority") { $0.options.insert(.lowPriority) },
        Change(name: "high priority") { $0.options.insert(.highPriority) },
        Change(name: "user info") { $0.userInfo[Trace.self] = "abc" },
        Change(name: "scale-down limit without the flag") { $0.decoding.scaleDownLimitBytes = 1024 },
    ]

    @Test("Priority, user info and settings that do not apply change no key", arguments: neutralChanges)
    func neutralFields(change: Change) throws {
        let (before, after) = try Self.keys(of: change)
        #expect(before == after)
    }

    @Test("Every flag is classified: priority flags join every job, all others keep the final jobs apart")
    func everyFlagIsClassified() throws {
        for (name, flag) in Self.allFlags {
            let (before, after) = try Self.keys(of: Change(name: name) { $0.options.insert(flag) })
            let isPriority = ImageRequest.Options.scheduling.contains(flag)
            #expect((before.final == after.final) == isPriority, "\(name)")
        }
    }

    // MARK: Objects and closures, pinned keys, shorthands

    static let componentChanges: [Change] = [
        Change(name: "cache") { $0.caching.cache = ImageCache(memory: [MemoryCache()]) },
        Change(name: "original cache") { $0.caching.originalCache = ImageCache(memory: [MemoryCache()]) },
        Change(name: "serializer") { $0.caching.serializer = { _, data, _ in data } },
        Change(name: "coder") { $0.decoding.coder = ImageCodersManager() },
        Change(name: "loader") { $0.loading.loader = FileImageLoader() },
        Change(name: "request modifier") { $0.loading.requestModifier = ImageRequestModifier { $0 } },
        Change(name: "response modifier") { $0.loading.responseModifier = ImageResponseModifier { $0 } },
        Change(name: "decryptor") { $0.loading.decryptor = .base64 },
    ]

    @Test("A per-request object or closure makes the request share no job", arguments: componentChanges)
    func components(change: Change) throws {
        var request = ImageRequest(url: Self.url)
        #expect(!request.hasCustomComponents)
        change.apply(&request)
        #expect(request.hasCustomComponents)
        #expect(try Self.keys(request).cache == Self.url.absoluteString)
    }

    @Test("The keys of the existing cases are unchanged")
    func pinnedKeys() throws {
        var request = ImageRequest(url: Self.url)
        #expect(request.cacheKey == "https://x.com/a/b.png?v=2")
        request.decoding.thumbnailPixelSize = PixelSize(width: 100, height: 80)
        request.options.insert(.decodeFirstFrameOnly)
        request.transformer = NamedTransformer(key: "T")
        #expect(request.originalCacheKey == "https://x.com/a/b.png?v=2")
        #expect(request.cacheKey == "https://x.com/a/b-Thumbnail(%7B100,80%7D,1)-FirstFrame-T.png?v=2")
        let chained = CacheKeys.transformed(
            CacheKeys.firstFrame(
                CacheKeys.thumbnailed(Self.url.absoluteString, size: PixelSize(width: 100, height: 80), preserveAspectRatio: true)),
            transformerKey: "T")
        #expect(request.cacheKey == chained)
    }

    @Test("The flat names forward to the grouped properties")
    func shorthands() {
        var request = ImageRequest(url: Self.url)
        request.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        request.preserveAspectRatio = false
        request.scaleFactor = 3
        request.scaleDownLimitBytes = 7
        request.queryCacheType = .memory
        request.storeCacheType = .disk
        request.originalQueryCacheType = .none
        request.originalStoreCacheType = .all
        request.encodeOptions.quality = 0.25
        request.decryptor = .base64
        #expect(request.decoding.thumbnailPixelSize == PixelSize(width: 10, height: 10))
        #expect(!request.decoding.preserveAspectRatio)
        #expect(request.decoding.scaleFactor == 3)
        #expect(request.decoding.scaleDownLimitBytes == 7)
        #expect(request.caching.queryType == .memory)
        #expect(request.caching.storeType == .disk)
        #expect(request.caching.originalQueryType == .none)
        #expect(request.caching.originalStoreType == .all)
        #expect(request.caching.encodeOptions.quality == 0.25)
        #expect(request.loading.decryptor != nil)
        request.caching.keyFilter = { _ in "k" }
        #expect(request.cacheKeyFilter?(Self.url) == "k")
    }
}
