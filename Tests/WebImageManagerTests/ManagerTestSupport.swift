import Foundation
import Synchronization
import WebImageHTTPTesting
import WebImageKit
import WebImageTesting

/// The real coders, counting the decodes that reach them (to check coalescing); incremental
/// decoders come from the real coders too.
final class CountingCoders: ImageCoding, ImageProgressiveDecoding {
    let base = ImageCodersManager.standard()
    private let counter = Mutex(0)

    var name: String { "counting" }
    var decodeCount: Int { counter.withLock { $0 } }
    func canDecode(_ data: Data) -> Bool { base.canDecode(data) }
    func canEncode(_ format: ImageFormat) -> Bool { base.canEncode(format) }
    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        counter.withLock { $0 += 1 }
        return try base.decode(data, options: options)
    }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        try base.encode(image, as: format, options: options)
    }
    func makeIncrementalDecoder(options: ImageDecodingOptions) -> any ImageIncrementalDecoding {
        base.makeIncrementalDecoder(options: options)
    }
}

/// A loopback server, a temporary disk cache directory, an HTTP loader and managers over them.
final class ManagerHarness: Sendable {
    let server: LoopbackHTTPServer
    let directory: URL
    let http: HTTPImageLoader
    let coders = CountingCoders()

    private init(server: LoopbackHTTPServer, directory: URL, http: HTTPImageLoader) {
        self.server = server
        self.directory = directory
        self.http = http
    }

    static func start(
        maximumConcurrentDownloads: Int = 6, tls: LoopbackHTTPServer.TLSMode? = nil,
        configure: (inout HTTPImageLoaderConfiguration) -> Void = { _ in }
    ) async throws -> ManagerHarness {
        let server = try await LoopbackHTTPServer.start(tls: tls)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-tests-\(UUID().uuidString)", isDirectory: true)
        var configuration = HTTPImageLoaderConfiguration()
        configuration.maximumConcurrentDownloads = maximumConcurrentDownloads
        // Tests hold responses behind gates while their bodies wait for a turn; on a loaded 2-core
        // machine that wait once outlasted the 15 s default read (idle) timeout (the held download
        // failed with `timedOut`). Timeout tests set their own.
        configuration.timeout = .seconds(300)
        configuration.readTimeout = .seconds(300)
        configure(&configuration)
        return ManagerHarness(server: server, directory: directory, http: HTTPImageLoader(configuration: configuration))
    }

    /// A new cache over the harness's directory: a new memory tier, the same disk contents; the
    /// disk cache dates its entries by `clock`.
    func makeCache(clock: any CacheClock = SystemCacheClock()) throws -> ImageCache {
        let disk = try DiskCache(configuration: DiskCacheConfiguration(directory: directory, sweepInterval: nil, clock: clock))
        return ImageCache(memory: [MemoryCache()], data: [disk], decoder: coders)
    }

    /// A new manager (new memory cache) over the harness's disk directory and loader; `clock`
    /// dates the disk entries and judges their HTTP freshness.
    func makeManager(
        clock: any CacheClock = SystemCacheClock(), _ adjust: (inout ImageManager.Configuration) -> Void = { _ in }
    ) throws -> ImageManager {
        var configuration = ImageManager.Configuration(
            imageCache: try makeCache(clock: clock), loader: ImageLoadersManager.standard(http: http), coders: coders)
        configuration.freshnessClock = clock
        adjust(&configuration)
        return ImageManager(configuration: configuration)
    }

    func shutdown() async {
        try? await http.shutdown()
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a started harness and always shuts it down.
func withHarness(
    maximumConcurrentDownloads: Int = 6, tls: LoopbackHTTPServer.TLSMode? = nil,
    configure: (inout HTTPImageLoaderConfiguration) -> Void = { _ in },
    _ body: (ManagerHarness) async throws -> Void
) async throws {
    let harness = try await ManagerHarness.start(
        maximumConcurrentDownloads: maximumConcurrentDownloads, tls: tls, configure: configure)
    do {
        try await body(harness)
    } catch {
        await harness.shutdown()
        throw error
    }
    await harness.shutdown()
}

enum Fixture {
    /// A PNG of a `width`×`height` gradient, encoded with our PNG encoder.
    static func png(width: Int = 64, height: Int = 48, seed: Int = 0) throws -> Data {
        var pixels = ImageFixtures.gradient(width: width, height: height)
        if seed != 0 { pixels[0, 0] = RGBA8(r: UInt8(seed % 256), g: 1, b: 2, a: 255) }
        return try PNGCoder().encode(Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions())
    }
}

extension WebImageError.Code {
    /// The code of `error` when it is a ``WebImageError``.
    static func of(_ error: any Error) -> WebImageError.Code? { (error as? WebImageError)?.code }
}

/// The code a throwing body fails with (nil when it does not fail).
func failureCode<T>(_ body: () async throws -> T) async -> WebImageError.Code? {
    do {
        _ = try await body()
        return nil
    } catch {
        return WebImageError.Code.of(error)
    }
}

/// The bytes and metadata on disk for `key`, read without decoding or promoting to memory.
func diskEntry(_ cache: ImageCache, _ key: String) async throws -> ImageCache.QueryResult? {
    try await cache.query(forKey: key, cacheType: .disk, options: ImageCache.QueryOptions(decodeImage: false, promoteToMemory: false))
}
