import Metrics
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
    /// The node's own disk tier (in front of Redis).
    let disk: DiskCache
    let http: HTTPImageLoader
    let directory: URL

    init(
        server: RedisTestServer, namespace: String = "nodes", commandTimeout: Duration = .seconds(1),
        breaker: CircuitBreaker.Configuration = .init(failureThreshold: 2, openDuration: .seconds(1)),
        coordination: RedisCoordinatedLoader.Configuration = .init(waitTimeout: .seconds(5), pollInterval: .milliseconds(10)),
        keys: RedisEntryKeyring? = nil, metricsFactory: (any MetricsFactory)? = nil, s3: S3Configuration? = nil
    ) throws {
        var configuration = server.configuration()
        configuration.commandTimeout = commandTimeout
        let client = RedisClient(configuration: configuration)
        redis = RedisImageCache(
            client: client, keys: try keys ?? TestKeys.keyring(), configuration: .init(namespace: namespace, breaker: breaker),
            metricsFactory: metricsFactory)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-redis-node-\(UUID().uuidString)")
        var httpConfiguration = HTTPImageLoaderConfiguration()
        httpConfiguration.s3 = s3
        http = HTTPImageLoader(configuration: httpConfiguration)
        let coders = ImageCodersManager.standard()
        // The tiers the CLI and serve compose, with the disk tier kept for the tests to look into.
        disk = try DiskCache(configuration: DiskCacheConfiguration(directory: directory, sweepInterval: nil))
        let tiers = CacheTiers(disk: disk, redis: redis)
        var managerConfiguration = ImageManager.Configuration(
            imageCache: tiers.imageCache(decoder: coders),
            loader: tiers.coordinating(ImageLoadersManager.standard(http: http), configuration: coordination), coders: coders)
        managerConfiguration.defaultOptions = [.waitStoreCache]
        manager = ImageManager(configuration: managerConfiguration)
    }

    /// Runs `body` with this node, then shuts it down, also when `body` throws (an HTTP client
    /// released without a shutdown traps in debug builds and takes the test process down).
    func using<T>(_ body: (RedisNode) async throws -> T) async throws -> T {
        do {
            let value = try await body(self)
            await shutdown()
            return value
        } catch {
            await shutdown()
            throw error
        }
    }

    func shutdown() async {
        try? await http.shutdown()
        try? await disk.close()
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

/// Keys for the tests' Redis entries (fixed secrets: never use such keys outside tests).
enum TestKeys {
    /// A key `id` with 32 bytes of `byte`.
    static func key(_ id: String = "test-1", byte: UInt8 = 1) throws -> RedisEntryKey {
        try RedisEntryKey(id: id, secret: Data(repeating: byte, count: 32))
    }

    /// A keyring of one key, `test-1`.
    static func keyring() throws -> RedisEntryKeyring { RedisEntryKeyring(signing: try key()) }

    /// `id:hex` as `--redis-key` and `WEBIMAGE_REDIS_KEY` take it.
    static func text(_ id: String = "test-1", byte: UInt8 = 1) -> String {
        id + ":" + String(repeating: String(format: "%02x", byte), count: 32)
    }
}
