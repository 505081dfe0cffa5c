import Foundation
import WebImageHTTPTesting
import WebImageKit
import WebImageRedis
import WebImageTesting

/// One "node" of a fleet in a test: its own memory and disk tiers, the shared Redis tier, its
/// own HTTP loader wrapped in the coordinated loader, and a manager over them.
struct RedisNode {
    let manager: ImageManager
    let redis: RedisImageCache
    let http: HTTPImageLoader
    let directory: URL

    init(
        server: RedisTestServer, namespace: String = "nodes", commandTimeout: Duration = .seconds(1),
        breaker: CircuitBreaker.Configuration = .init(failureThreshold: 2, openDuration: .seconds(1)),
        coordination: RedisCoordinatedLoader.Configuration = .init(waitTimeout: .seconds(5), pollInterval: .milliseconds(10))
    ) throws {
        var configuration = server.configuration()
        configuration.commandTimeout = commandTimeout
        let client = RedisClient(configuration: configuration)
        redis = RedisImageCache(client: client, configuration: .init(namespace: namespace, breaker: breaker))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-redis-node-\(UUID().uuidString)")
        http = HTTPImageLoader()
        let coders = ImageCodersManager.standard()
        let cache = try ImageCache.tiered(
            decoder: coders, disk: DiskCacheConfiguration(directory: directory, sweepInterval: nil), redis: redis)
        let loader = RedisCoordinatedLoader(wrapping: ImageLoadersManager.standard(http: http), cache: redis, configuration: coordination)
        var managerConfiguration = ImageManager.Configuration(imageCache: cache, loader: loader, coders: coders)
        managerConfiguration.defaultOptions = [.waitStoreCache]
        manager = ImageManager(configuration: managerConfiguration)
    }

    func shutdown() async {
        try? await http.shutdown()
        await redis.client.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

enum RedisFixture {
    /// A PNG encoded by our encoder; `seed` makes it distinct.
    static func png(seed: Int = 0) throws -> Data {
        var pixels = ImageFixtures.gradient(width: 40, height: 30)
        pixels[0, 0] = RGBA8(r: UInt8(seed % 256), g: UInt8(seed / 256 % 256), b: 2, a: 255)
        return try PNGCoder().encode(Image(pixels: pixels, format: .png), as: .png, options: ImageEncodingOptions())
    }
}
